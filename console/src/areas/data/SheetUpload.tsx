import type { UploadedSheets } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { baseHeaders, readResponse } from '../../api';
import { ErrorBox } from '../../components/States';
import { useSession } from '../../session';

/** Sends a CSV or XLSX file to a file source as its raw bytes (docs/api/data-sources.md). */
async function uploadSheets(sourceId: string, file: File): Promise<UploadedSheets> {
  const res = await fetch(`/v1/data-sources/${sourceId}/files`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      ...baseHeaders(),
      'Content-Type': file.type || 'application/octet-stream',
      'X-Filename': encodeURIComponent(file.name),
    },
    body: file,
  });
  return readResponse<UploadedSheets>(res);
}

/** Upload a CSV (one sheet) or an XLSX workbook (a sheet per worksheet); the same name again replaces it. */
export function SheetUpload({ sourceId }: { sourceId: string }) {
  const { can } = useSession();
  const client = useQueryClient();
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: () => uploadSheets(sourceId, file!),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['data-sources', sourceId, 'objects'] }),
  });
  if (!can('data_sources:manage')) return null;
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        upload.mutate();
      }}
    >
      <h2>Upload sheets</h2>
      <div className="field">
        <label htmlFor={id}>CSV or XLSX file (first row the header)</label>
        <input
          id={id}
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(e) => {
            upload.reset();
            setFile(e.target.files?.[0] ?? null);
          }}
        />
      </div>
      <ErrorBox error={upload.error} title="Could not upload" />
      {upload.data ? (
        <p className="notice" role="status">
          Uploaded: {upload.data.objects.map((o) => `${o.name} (${o.rows} rows)`).join(', ')}
        </p>
      ) : null}
      <button className="primary" type="submit" disabled={!file || upload.isPending}>
        {upload.isPending ? 'Uploading…' : 'Upload'}
      </button>
    </form>
  );
}
