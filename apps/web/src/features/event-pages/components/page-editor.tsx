import type { TEventPageDraft } from '@marquee/core';
import grapesjs, { type Editor } from 'grapesjs';
import 'grapesjs/dist/css/grapes.min.css';
// The icon font GrapesJS's panels and toolbars are drawn with (Font Awesome 4.7, as GrapesJS expects),
// bundled and served from our own origin: GrapesJS would otherwise load it from a public CDN, which
// our Content-Security-Policy refuses (issue 21.15).
import 'font-awesome/css/font-awesome.min.css';
import './page-editor.css';
import { useEffect, useRef } from 'react';

// GrapesJS lives in this module only: it is imported by the event's Page tab on demand, never by
// the attendee site or the other console pages.

/** What each of GrapesJS's own panel buttons does, for its tooltip and its accessible name. */
const BUTTON_NAMES: Record<string, string> = {
  'fa-square-o': 'Show outlines',
  'fa-eye': 'Preview',
  'fa-arrows-alt': 'Full screen',
  'fa-code': 'View code',
  'fa-paint-brush': 'Style',
  'fa-cog': 'Settings',
  'fa-bars': 'Layers',
  'fa-th-large': 'Blocks',
  'fa-undo': 'Undo',
  'fa-repeat': 'Redo',
};

function nameButtons(root: HTMLElement) {
  root.querySelectorAll<HTMLElement>('.gjs-pn-btn').forEach((button) => {
    const name = Object.entries(BUTTON_NAMES).find(([cls]) => button.classList.contains(cls))?.[1];
    if (!name) return;
    button.setAttribute('title', name);
    button.setAttribute('aria-label', name);
    button.setAttribute('role', 'button');
  });
}

export type Device = 'Desktop' | 'Phone';

export type PageEditorProps = {
  draft: TEventPageDraft;
  device: Device;
  onChange: (draft: TEventPageDraft) => void;
  onReady?: (editor: Editor) => void;
};

function projectOf(text: string): Record<string, unknown> | null {
  try {
    const p = JSON.parse(text) as { pages?: Array<{ frames?: unknown[] }> };
    return Array.isArray(p.pages) && p.pages.length > 0 ? (p as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function PageEditor({ draft, device, onChange, onReady }: PageEditorProps) {
  const container = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;

  useEffect(() => {
    if (!container.current) return;
    const project = projectOf(draft.project);
    const editor = grapesjs.init({
      container: container.current,
      // No stylesheet from a CDN: the icon font is imported above.
      cssIcons: '',
      height: '72vh',
      width: 'auto',
      storageManager: false,
      ...(project ? { projectData: project } : { components: draft.html, style: draft.css }),
      deviceManager: {
        devices: [
          { id: 'Desktop', name: 'Desktop', width: '' },
          { id: 'Phone', name: 'Phone', width: '390px', widthMedia: '480px' },
        ],
      },
    });
    editorRef.current = editor;
    const emit = () => changeRef.current({ project: JSON.stringify(editor.getProjectData()), html: editor.getHtml(), css: editor.getCss() ?? '' });
    editor.on('update', emit);
    // WCAG 4.1.2: GrapesJS leaves its canvas frame and its device select unnamed.
    editor.on('load', () => {
      editor.Canvas.getFrameEl()?.setAttribute('title', 'Page canvas');
      container.current?.querySelectorAll('select.gjs-devices').forEach((el) => el.setAttribute('aria-label', 'Device'));
      if (container.current) nameButtons(container.current);
    });
    onReady?.(editor);
    return () => {
      editor.destroy();
      editorRef.current = null;
    };
    // The editor is made once per draft it opens with; later changes flow out, not in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    editorRef.current?.setDevice(device);
  }, [device]);

  return <div ref={container} data-testid="page-editor" />;
}
