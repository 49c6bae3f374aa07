import type { KnowledgeDocument } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { MutationStatus } from '../../components/MutationStatus';
import { uploadFile } from '../../upload';
import { LinkFields } from './LinkFields';

/** Text, markdown, CSV, JSON and HTML files become documents (docs/api/knowledge.md#from-a-library-file). */
const ACCEPT =
  '.txt,.text,.md,.markdown,.csv,.json,.html,.htm,text/plain,text/markdown,text/csv,application/json,text/html';

/** Adds a document from pasted text, or from a file uploaded to the library first. */
export function AddDocument() {
  const client = useQueryClient();
  const [title, setTitle] = useState('');
  const [mode, setMode] = useState<'text' | 'file'>('text');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [projectId, setProjectId] = useState('');
  const [agentIds, setAgentIds] = useState<string[]>([]);
  const add = useMutation({
    mutationFn: async () => {
      const links = { agentIds, ...(projectId ? { projectId } : {}) };
      if (mode === 'text') {
        return api<KnowledgeDocument>('/v1/knowledge', {
          method: 'POST',
          json: { title: title.trim(), text, ...links },
        });
      }
      setProgress(0);
      const uploaded = await uploadFile(file!, null, setProgress);
      return api<KnowledgeDocument>('/v1/knowledge', {
        method: 'POST',
        json: { title: title.trim(), fileId: uploaded.id, ...links },
      });
    },
    onSuccess: () => {
      setTitle('');
      setText('');
      setFile(null);
      setProgress(null);
      void client.invalidateQueries({ queryKey: ['knowledge'] });
    },
  });
  const ready = title.trim() !== '' && (mode === 'text' ? text.trim() !== '' : file !== null);
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <h2>Add a document</h2>
      <div className="field">
        <label htmlFor="doc-title">Title</label>
        <input id="doc-title" required maxLength={255} value={title} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <fieldset>
        <legend>Source</legend>
        <label className="check">
          <input type="radio" name="doc-source" checked={mode === 'text'} onChange={() => setMode('text')} /> Paste text
        </label>
        <label className="check">
          <input type="radio" name="doc-source" checked={mode === 'file'} onChange={() => setMode('file')} /> Upload a
          file
        </label>
      </fieldset>
      {mode === 'text' ? (
        <div className="field">
          <label htmlFor="doc-text">Text</label>
          <textarea id="doc-text" rows={6} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
      ) : (
        <div className="field">
          <label htmlFor="doc-file">File (text, markdown, CSV, JSON or HTML, UTF-8)</label>
          <input id="doc-file" type="file" accept={ACCEPT} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          {progress !== null ? (
            <progress max={1} value={progress} aria-label="Upload progress">
              {Math.round(progress * 100)} %
            </progress>
          ) : null}
        </div>
      )}
      <LinkFields projectId={projectId} agentIds={agentIds} onProject={setProjectId} onAgents={setAgentIds} />
      <MutationStatus
        mutation={add}
        failed="Could not add the document"
        done={(d) => (
          <>
            Added “{d.title}” ({d.chars} characters).
          </>
        )}
      />
      <button className="primary" type="submit" disabled={add.isPending || !ready}>
        Add the document
      </button>
    </form>
  );
}
