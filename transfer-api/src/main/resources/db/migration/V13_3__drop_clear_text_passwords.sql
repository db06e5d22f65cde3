-- Issue 13: V13_2 sealed every endpoint password into password_sealed; the clear-text column goes.
ALTER TABLE endpoint DROP COLUMN password;
