-- Multicast (issue 32): each destination's progress. A multicast chunk's mover reports, per
-- destination, the bytes of its files in flight that are there and the files held whole
-- (ResultMessage.destinations, "bytes/files,..."), which GET /task/{id} adds to what was checked at
-- every destination. Null for a chunk with one destination. Portable SQL (H2 2.x and PostgreSQL).
ALTER TABLE chunk ADD COLUMN destinations_in_flight VARCHAR(1000);
-- What each destination held of a multicast file at its last fault ("bytes/held,...", the same
-- shape for one file), kept while the file waits for its next chunk. Null for other files.
ALTER TABLE transfer_file ADD COLUMN destinations_held VARCHAR(1000);
