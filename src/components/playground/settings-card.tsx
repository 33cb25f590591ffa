'use client';
import * as React from 'react';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { Plus, X } from 'lucide-react';
import { ACCESSORY_CATEGORIES, QUALITIES, SCALES } from '@/shared/creations/schemas';
import type { CreationKind } from '@/shared/playground/playground-inputs';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import type { FieldErrors } from '@/console-client/problems';
import { FieldError } from './field-error';
import type { PlaygroundForm } from './playground-request';

/** The kind's settings: quality or scale, style, accessory categories, metadata and `background`. */
export function SettingsCard({ form, kind, errors, styles }: { form: UseFormReturn<PlaygroundForm>; kind: CreationKind; errors: FieldErrors; styles: readonly { id: string; name: string; description: string }[] | undefined }) {
  const metadata = useFieldArray({ control: form.control, name: 'metadata' });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Settings</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {kind === 'upscale' ? (
          <Controller
            control={form.control}
            name="scale"
            render={({ field }) => (
              <div className="grid gap-1.5">
                <Label htmlFor="scale">Scale</Label>
                <Select id="scale" label="Scale" value={field.value} onValueChange={field.onChange} options={SCALES.map((s) => ({ value: s, label: s }))} />
                <FieldError errors={errors} param="scale" />
              </div>
            )}
          />
        ) : (
          <Controller
            control={form.control}
            name="quality"
            render={({ field }) => (
              <div className="grid gap-1.5">
                <Label htmlFor="quality">Quality (output&apos;s long side)</Label>
                <Select id="quality" label="Quality" value={field.value} onValueChange={field.onChange} options={QUALITIES.map((s) => ({ value: s, label: s }))} />
                <FieldError errors={errors} param="quality" />
              </div>
            )}
          />
        )}
        {kind === 'render' || kind === 'decoration' ? (
          <Controller
            control={form.control}
            name="style"
            render={({ field }) => (
              <fieldset className="grid min-w-0 gap-1.5">
                <legend className="text-sm font-medium">Style</legend>
                <div className="grid max-h-64 gap-1 overflow-y-auto rounded-md border p-2" role="radiogroup" aria-label="Style">
                  {[{ id: '', name: kind === 'decoration' ? 'Keep the current style' : 'No style', description: '' }, ...(styles ?? [])].map((s) => (
                    <label key={s.id || 'none'} className="flex items-start gap-2 rounded p-1 text-sm hover:bg-accent">
                      <input type="radio" name="style" className="mt-1" checked={field.value === s.id} onChange={() => field.onChange(s.id)} />
                      <span>
                        <span className="font-medium">{s.name}</span>
                        {s.description ? <span className="block text-xs text-muted-foreground">{s.description}</span> : null}
                      </span>
                    </label>
                  ))}
                </div>
                <FieldError errors={errors} param="style" />
              </fieldset>
            )}
          />
        ) : null}
        {kind === 'decoration' ? (
          <Controller
            control={form.control}
            name="categories"
            render={({ field }) => (
              <fieldset className="grid min-w-0 gap-1.5">
                <legend className="text-sm font-medium">Accessory categories (none checked: all that suit the style)</legend>
                <div className="grid grid-cols-2 gap-1 sm:grid-cols-3">
                  {ACCESSORY_CATEGORIES.map((c) => (
                    <label key={c} className="flex items-center gap-2 text-sm">
                      <Checkbox
                        checked={field.value.includes(c)}
                        onCheckedChange={(v) => field.onChange(v === true ? [...field.value, c] : field.value.filter((x) => x !== c))}
                        aria-label={c.replace('_', ' ')}
                      />
                      {c.replace('_', ' ')}
                    </label>
                  ))}
                </div>
                <FieldError errors={errors} param="categories" />
              </fieldset>
            )}
          />
        ) : null}
        <fieldset className="grid min-w-0 gap-2">
          <legend className="text-sm font-medium">Metadata (up to 16 pairs, returned unchanged)</legend>
          {metadata.fields.map((f, i) => (
            <div key={f.id} className="flex min-w-0 gap-2">
              <Input aria-label={`Metadata key ${i + 1}`} placeholder="key" maxLength={40} {...form.register(`metadata.${i}.key`)} />
              <Input aria-label={`Metadata value ${i + 1}`} placeholder="value" maxLength={500} {...form.register(`metadata.${i}.value`)} />
              <Button size="icon" variant="ghost" aria-label={`Remove metadata pair ${i + 1}`} onClick={() => metadata.remove(i)}>
                <X aria-hidden />
              </Button>
            </div>
          ))}
          <div>
            <Button size="sm" variant="outline" disabled={metadata.fields.length >= 16} onClick={() => metadata.append({ key: '', value: '' })}>
              <Plus aria-hidden /> Add a pair
            </Button>
          </div>
          <FieldError errors={errors} param="metadata" />
        </fieldset>
        <Controller
          control={form.control}
          name="background"
          render={({ field }) => (
            <div className="flex items-center gap-2">
              <Switch id="background" checked={field.value} onCheckedChange={field.onChange} />
              <Label htmlFor="background">background: answer 202 at acceptance (in the copied code; the playground always follows the generation live)</Label>
            </div>
          )}
        />
      </CardContent>
    </Card>
  );
}
