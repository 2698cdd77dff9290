/**
 * The scene-error box: every problem with its JSON path, the value found and what is allowed.
 * Values are cut as the CLI cuts them (60 characters, `preview` in src/scene/parse.ts); paths,
 * messages and the file's name are cut too, so hostile input cannot fill the page.
 */
import { preview, type SceneIssue } from '../scene/parse.ts';

/** Longest path, message and label shown, characters. */
const MAX_PATH = 120;
const MAX_MESSAGE = 400;
const MAX_LABEL = 60;

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

/** One problem as the box lists it (HTML). */
export function issueHtml(i: SceneIssue): string {
  const value = i.value === undefined ? '' : ` <span>(got ${escapeHtml(preview(i.value))})</span>`;
  return `<li><code>${escapeHtml(cut(i.path || '(scene)', MAX_PATH))}</code>: ${escapeHtml(cut(i.message, MAX_MESSAGE))}${value}</li>`;
}

export function showSceneError(box: HTMLElement, label: string, issues: SceneIssue[]): void {
  const n = issues.length;
  const title = `${escapeHtml(cut(label, MAX_LABEL))} was not loaded (the running scene goes on): ${n} problem${n === 1 ? '' : 's'}`;
  box.innerHTML = `<button type="button">dismiss</button><h3>${title}</h3><ul>${issues.map(issueHtml).join('')}</ul>`;
  box.querySelector('button')!.addEventListener('click', () => hideSceneError(box));
  box.style.display = 'block';
}

export function hideSceneError(box: HTMLElement): void {
  box.style.display = 'none';
}
