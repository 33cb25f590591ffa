import { Brush, Eraser, Hand, Lasso, PaintBucket, Square } from 'lucide-react';
import type * as React from 'react';

export type Tool = 'brush' | 'eraser' | 'rect' | 'polygon' | 'fill' | 'pan';

/** The painter's tools, with the letter that chooses each from the keyboard. */
export const TOOLS: { id: Tool; label: string; key: string; icon: React.ComponentType<{ className?: string; 'aria-hidden'?: boolean }> }[] = [
  { id: 'brush', label: 'Brush', key: 'B', icon: Brush },
  { id: 'eraser', label: 'Eraser', key: 'E', icon: Eraser },
  { id: 'rect', label: 'Rectangle', key: 'R', icon: Square },
  { id: 'polygon', label: 'Polygon (click points, double-click or Enter to close)', key: 'P', icon: Lasso },
  { id: 'fill', label: 'Fill region', key: 'F', icon: PaintBucket },
  { id: 'pan', label: 'Pan', key: 'H', icon: Hand },
];

export const MAX_ZOOM = 8;
export const zoomIn = (z: number) => Math.min(MAX_ZOOM, z * 1.5);
export const zoomOut = (z: number) => Math.max(1, z / 1.5);

export function percent(value: number, of: number): number {
  return Math.round((value / of) * 100);
}
