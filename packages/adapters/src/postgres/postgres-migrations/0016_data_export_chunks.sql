-- Data export archives in chunks (issue 5: "streamed, never built fully in memory"): the build appends bounded
-- chunks as it reads, the download sends them one at a time. Chunks of an attempt that never finished are
-- removed when the export is claimed again; the export turns ready in the transaction that writes its last
-- chunk, with the size and SHA-256 of the whole archive (sent as ETag and Repr-Digest on download).
CREATE TABLE data_export_chunks (
  export_id uuid NOT NULL REFERENCES data_exports (id) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 0),
  bytes bytea NOT NULL,
  PRIMARY KEY (export_id, seq)
);

ALTER TABLE data_exports ADD COLUMN chunk_count integer, ADD COLUMN sha256 text;

-- Archives stored before chunks: each becomes the one chunk of its export, so nothing stored is lost.
INSERT INTO data_export_chunks (export_id, seq, bytes)
  SELECT id, 0, convert_to(archive, 'UTF8') FROM data_exports WHERE archive IS NOT NULL;
UPDATE data_exports
  SET chunk_count = 1,
      size_bytes = octet_length(archive),
      sha256 = encode(sha256(convert_to(archive, 'UTF8')), 'hex')
  WHERE archive IS NOT NULL;

ALTER TABLE data_exports DROP COLUMN archive;
ALTER TABLE data_exports ADD CONSTRAINT data_exports_ready_archive
  CHECK (status <> 'ready' OR (chunk_count IS NOT NULL AND size_bytes IS NOT NULL AND sha256 IS NOT NULL));
