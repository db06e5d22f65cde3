-- Directory digests (issue 37 item 3). Portable SQL (H2 2.x and PostgreSQL).
-- verify_tree_digest (Ferry's extension ferry_verify_tree_digest): after every file arrived, the
-- service compares each recursive item's tree digest (CKSM SHA256-TREE) on the two servers; the
-- step's end is recorded in mirror_state, as delete_destination_extra's is.
ALTER TABLE task ADD COLUMN verify_tree_digest BOOLEAN DEFAULT FALSE NOT NULL;
