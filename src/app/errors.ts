/** The scene-error box: every problem with its JSON path, the value found and what is allowed. */
import type { SceneIssue } from '../scene/parse.ts';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

export function showSceneError(box: HTMLElement, label: string, issues: SceneIssue[]): void {
  const items = issues
    .map((i) => {
      const value = i.value === undefined ? '' : ` <span>(got ${escapeHtml(JSON.stringify(i.value) ?? String(i.value))})</span>`;
      return `<li><code>${escapeHtml(i.path || '(scene)')}</code>: ${escapeHtml(i.message)}${value}</li>`;
    })
    .join('');
  const n = issues.length;
  box.innerHTML = `<button type="button">dismiss</button><h3>${escapeHtml(label)} was not loaded (the running scene goes on): ${n} problem${n === 1 ? '' : 's'}</h3><ul>${items}</ul>`;
  box.querySelector('button')!.addEventListener('click', () => hideSceneError(box));
  box.style.display = 'block';
}

export function hideSceneError(box: HTMLElement): void {
  box.style.display = 'none';
}
