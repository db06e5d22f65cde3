-- Checksum algorithms and given checksums (issue 35 item 2). Portable SQL (H2 2.x and PostgreSQL).
-- checksum_algorithm: what verify_checksum, sync level 3 and external_checksum compare (a CKSM
-- name: MD5, ADLER32, SHA1, SHA256, SHA512, CRC32C); MD5 for the tasks before, as they were.
ALTER TABLE task ADD COLUMN checksum_algorithm VARCHAR(16) DEFAULT 'MD5' NOT NULL;
-- external_checksum: the hex value a user gave for a file item (Globus transfer_item field),
-- carried to the file row the item plans into.
ALTER TABLE transfer_item ADD COLUMN external_checksum VARCHAR(128);
ALTER TABLE transfer_file ADD COLUMN external_checksum VARCHAR(128);
-- "SHA512:" and 128 hex digits do not fit the old 128 characters.
ALTER TABLE transfer_file ALTER COLUMN checksum SET DATA TYPE VARCHAR(160);
