'use client';
import * as React from 'react';
import { Loader2, Upload } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { ProblemText } from '@/components/ui/problem-text';
import type { FieldErrors, Problem } from '@/console-client/problems';
import { MAX_IMAGE_URL_LENGTH } from '@/shared/images/image-limits';
import { FieldError } from './field-error';
import type { ChosenImage } from './use-playground-draft';

/** The image's natural size (after EXIF orientation, as the browser applies it). */
export function useImageSize(url: string | null): { width: number; height: number } | null {
  const [measured, setMeasured] = React.useState<{ url: string; width: number; height: number } | null>(null);
  React.useEffect(() => {
    if (!url) return;
    const img = new Image();
    img.onload = () => setMeasured({ url, width: img.naturalWidth, height: img.naturalHeight });
    img.src = url;
  }, [url]);
  return measured && measured.url === url ? { width: measured.width, height: measured.height } : null;
}

/** A file refused at choice: which file, and why (the chosen image before it stays). */
export interface RefusedChoice {
  name: string;
  problem: Problem;
}

/** The URL as the API would take it, judged in the browser: https, at most 2048 characters. */
export function urlProblem(text: string): Problem | null {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (!url || url.protocol !== 'https:') return { code: 'parameter_invalid', message: 'Enter an https URL of a JPEG, PNG or WebP image.', checkedInBrowser: true };
  if (text.length > MAX_IMAGE_URL_LENGTH) return { code: 'parameter_invalid', message: `The URL is longer than ${MAX_IMAGE_URL_LENGTH} characters.`, checkedInBrowser: true };
  return null;
}

/**
 * The input image: a file (dropped or chosen), an https URL, or a previous output. A file is
 * judged the moment it is chosen (type by content, size, dimensions, as the API does) and a
 * refusal is said under the field; the server's refusals at Run land there too.
 */
export function ImageCard({
  image,
  imageSize,
  urlText,
  onUrlText,
  onFile,
  onUrl,
  checking,
  refused,
  errors,
  showPreview,
}: {
  image: ChosenImage | null;
  imageSize: { width: number; height: number } | null;
  urlText: string;
  onUrlText: (text: string) => void;
  onFile: (file: File) => void;
  onUrl: (url: string) => void;
  checking: boolean;
  refused: RefusedChoice | null;
  errors: FieldErrors;
  showPreview: boolean;
}) {
  const source = image?.source;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Image</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ImageDrop onFile={onFile} invalid={refused !== null} />
        <div className="flex gap-2">
          <Input aria-label="Image URL" placeholder="https://example.com/room.jpg" value={urlText} onChange={(e) => onUrlText(e.target.value)} />
          <Button variant="outline" disabled={!urlText.trim()} onClick={() => onUrl(urlText.trim())}>
            Use URL
          </Button>
        </div>
        {checking ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Checking the file…
          </p>
        ) : null}
        {refused ? <ProblemText problem={refused.problem} param="image" prefix={`${refused.name}:`} testId="image-choice-problem" /> : null}
        {source ? (
          <p className="text-sm break-all" data-testid="image-source">
            {source.type === 'file' ? `File: ${source.file.name}` : source.type === 'url' ? `URL: ${source.url}` : `Output of ${source.generationId}`}
            {imageSize ? ` (${imageSize.width}×${imageSize.height})` : ''}
          </p>
        ) : null}
        <FieldError errors={errors} param="image" />
        {image && showPreview ? (
          // eslint-disable-next-line @next/next/no-img-element -- the user's own image
          <img src={image.previewUrl} alt="The input image" className="max-h-80 w-auto rounded border object-contain" />
        ) : null}
      </CardContent>
    </Card>
  );
}

function ImageDrop({ onFile, invalid }: { onFile: (file: File) => void; invalid: boolean }) {
  const [over, setOver] = React.useState(false);
  return (
    <label
      className={`flex cursor-pointer flex-col items-center gap-2 rounded-md border-2 border-dashed p-6 text-center text-sm focus-within:ring-2 focus-within:ring-ring ${over ? 'border-primary bg-accent' : invalid ? 'border-destructive' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (file) onFile(file);
      }}
    >
      <Upload className="size-5" aria-hidden />
      <span>Drop a photo here or choose a file (JPEG, PNG or WebP, up to 10 MB and 8192 pixels a side)</span>
      <input
        type="file"
        accept="image/jpeg,image/png,image/webp"
        className="sr-only"
        aria-label="Image file"
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = ''; // choosing the same file again (after "Use as input") fires a change
        }}
      />
    </label>
  );
}
