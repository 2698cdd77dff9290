/** Downloads from the page: bytes as files, PNG screenshots and WebM recordings of the canvas. */

const MIME: Record<string, string> = {
  obj: 'text/plain',
  ply: 'application/octet-stream',
  glb: 'model/gltf-binary',
  zip: 'application/zip',
  png: 'image/png',
  webm: 'video/webm',
};

export function download(data: Uint8Array | Blob, filename: string): void {
  const ext = filename.split('.').pop() ?? '';
  const blob = data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>], { type: MIME[ext] ?? 'application/octet-stream' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) s += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(s);
}

/** A WebM recording of a canvas through MediaRecorder; `stop()` resolves with the video. */
export class CanvasRecorder {
  private recorder: MediaRecorder | null = null;
  private chunks: Blob[] = [];

  get active(): boolean {
    return this.recorder !== null;
  }

  /** Bytes of video received so far. */
  get bytes(): number {
    return this.chunks.reduce((n, c) => n + c.size, 0);
  }

  start(canvas: HTMLCanvasElement, fps = 30): void {
    if (this.recorder) return;
    const stream = canvas.captureStream(fps);
    const types = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];
    const mimeType = types.find((t) => MediaRecorder.isTypeSupported(t));
    this.chunks = [];
    this.recorder = new MediaRecorder(stream, mimeType ? { mimeType, videoBitsPerSecond: 8_000_000 } : undefined);
    this.recorder.ondataavailable = (e) => {
      if (e.data.size > 0) this.chunks.push(e.data);
    };
    this.recorder.start(250);
  }

  stop(): Promise<Blob> {
    const rec = this.recorder;
    this.recorder = null;
    if (!rec) return Promise.resolve(new Blob([], { type: 'video/webm' }));
    return new Promise((resolve) => {
      rec.onstop = () => resolve(new Blob(this.chunks, { type: 'video/webm' }));
      rec.stop();
      for (const t of rec.stream.getTracks()) t.stop();
    });
  }
}
