import { renderSVG } from 'uqr';

/**
 * The enrolment QR code as an SVG document, drawn here (no third-party image service ever sees
 * the secret). Black on white whatever the console's theme: scanners want the contrast.
 */
export function qrCodeSvg(text: string): string {
  return renderSVG(text, { ecc: 'M', border: 2, pixelSize: 6, whiteColor: '#ffffff', blackColor: '#000000' });
}
