import React, { useState } from "react";

export function UploadButton({ onUpload }: { onUpload: (f: File) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  // A comment with `await` and 'quotes'
  return (
    <input
      type="file"
      disabled={busy}
      onChange={async (e) => {
        const file = e.target.files?.[0];
        if (!file) return;
        setBusy(true);
        try { await onUpload(file); } finally { setBusy(false); }
      }}
    />
  );
}
