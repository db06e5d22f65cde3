-- Files are found by chunk only through their task's ACTIVE files (index transfer_file_task_state):
-- an index on chunk_id cost three index writes per file (one at its insert, two at its dispatch),
-- about a quarter of the rows' writes of a task of small files (issue 34 item 4).
DROP INDEX transfer_file_chunk;
