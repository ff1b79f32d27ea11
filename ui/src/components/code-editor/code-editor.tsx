/**
 * CodeEditor({ value, onChange, tool, label, readOnly?, invalid?, describedBy? }): CodeMirror 6 for test scripts, with
 * line numbers, history, bracket matching, the language of the tool, theme colours from CSS variables, and Tab indenting
 * except right after Escape (Escape then Tab leaves the editor). Default export, for React.lazy.
 */
import { useEffect, useId, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab, simplifySelection, temporarilySetTabFocusMode } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { languageExtension, languageNameFor } from './language-for-tool';

export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  /** The test's tool: picks the language. */
  tool: string;
  /** The accessible name of the editor. */
  label: string;
  readOnly?: boolean;
  invalid?: boolean;
  /** Id(s) of elements describing the editor (an error message, a hint). */
  describedBy?: string;
}

/** Colours from the app's theme variables, so light and dark both read well. */
const theme = EditorView.theme({
  '&': {
    color: 'var(--text)',
    backgroundColor: 'var(--surface)',
    border: '1px solid var(--border)',
    borderRadius: '6px',
    fontSize: '0.9rem',
    maxHeight: '70vh',
  },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  '.cm-scroller': {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
    overflow: 'auto',
    minHeight: '16rem',
  },
  '.cm-content': { caretColor: 'var(--text)', padding: '0.5rem 0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--text-muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--info-bg) 60%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--info-bg)', color: 'var(--text)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'color-mix(in srgb, var(--accent) 30%, transparent) !important',
  },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'color-mix(in srgb, var(--success) 25%, transparent)', outline: '1px solid var(--success)' },
  '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: 'var(--danger-bg)', outline: '1px solid var(--danger)' },
  '&.code-editor-invalid': { borderColor: 'var(--danger)', boxShadow: '0 0 0 1px var(--danger)' },
});

const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.modifier, tags.controlKeyword, tags.definitionKeyword], color: 'var(--chart-3)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp, tags.attributeValue], color: 'var(--success)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--chart-2)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment, tags.docComment], color: 'var(--text-muted)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.className, tags.namespace], color: 'var(--info)' },
  { tag: [tags.propertyName, tags.attributeName, tags.labelName], color: 'var(--link)' },
  { tag: [tags.tagName, tags.angleBracket], color: 'var(--danger)' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: 'var(--warning)' },
  { tag: tags.definition(tags.variableName), color: 'var(--text)', fontWeight: '600' },
  { tag: tags.meta, color: 'var(--text-muted)' },
  { tag: tags.invalid, color: 'var(--danger)', textDecoration: 'underline wavy' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
]);

/** Escape (besides simplifying the selection) lets the next Tab or Shift-Tab move focus out of the editor. */
const escapeThenTab = keymap.of([
  {
    key: 'Escape',
    run: (view) => {
      simplifySelection(view);
      temporarilySetTabFocusMode(view);
      return true;
    },
  },
]);

function contentAttributes(props: { label: string; invalid?: boolean; describedBy?: string; hintId: string; readOnly?: boolean }): Extension {
  const attributes: Record<string, string> = {
    'aria-label': props.label,
    'aria-describedby': [props.describedBy, props.hintId].filter(Boolean).join(' '),
  };
  if (props.invalid) attributes['aria-invalid'] = 'true';
  if (props.readOnly) attributes['aria-readonly'] = 'true';
  return [EditorView.contentAttributes.of(attributes), EditorView.editorAttributes.of({ class: props.invalid ? 'code-editor-invalid' : '' })];
}

export function CodeEditor(props: CodeEditorProps) {
  const { value, onChange, tool, label, readOnly = false, invalid = false, describedBy } = props;
  const hintId = useId();
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const compartments = useRef({ language: new Compartment(), attributes: new Compartment(), readOnly: new Compartment() });
  const languageName = languageNameFor(tool, value);

  // Create the editor once.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const { language, attributes, readOnly: readOnlyCompartment } = compartments.current;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(highlight),
          escapeThenTab,
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          theme,
          // Long lines wrap: no sideways scrolling (a tablet's width, a long URL), which keyboard users could not reach.
          EditorView.lineWrapping,
          language.of(languageExtension(languageName)),
          attributes.of(contentAttributes({ label, invalid, describedBy, hintId, readOnly })),
          readOnlyCompartment.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
    // The editor is created once; later prop changes are applied by the effects below.
  }, []);

  // A value set from outside (loading a test, an example): replace the document.
  useEffect(() => {
    const view = viewRef.current;
    if (!view) return;
    const current = view.state.doc.toString();
    if (current !== value) view.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: compartments.current.language.reconfigure(languageExtension(languageName)) });
  }, [languageName]);

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: compartments.current.attributes.reconfigure(contentAttributes({ label, invalid, describedBy, hintId, readOnly })),
    });
  }, [label, invalid, describedBy, hintId, readOnly]);

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: compartments.current.readOnly.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
    });
  }, [readOnly]);

  return (
    <div className="code-editor">
      <div ref={hostRef} />
      <p id={hintId} className="field-hint">
        {readOnly ? 'Read only.' : 'Tab indents; press Escape, then Tab, to move on from the editor.'}
      </p>
    </div>
  );
}

export default CodeEditor;
