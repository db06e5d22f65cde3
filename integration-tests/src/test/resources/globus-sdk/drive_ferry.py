"""Drives a running ferry-server with the real globus-sdk, through the SDK's own methods and
paginators, as a portal would. Run by org.ferry.it.GlobusSdkTest; every check raises on
failure, and the last line printed is a count of checks passed.

Environment: FERRY_API (base URL, without /v0.10), FERRY_TOKEN (an admin's access token),
FERRY_USER_TOKEN (another user's token), ENDPOINT_A_URL, ENDPOINT_B_URL, SLOW_URL (GridFTP
servers; A holds /sdk/tree with FILES files and /sdk/file.txt, SLOW holds /big.bin and is rate
capped so a transfer from it stays ACTIVE).
"""
import datetime
import os
import sys

import globus_sdk
from globus_sdk import (
    AccessTokenAuthorizer,
    DeleteData,
    TransferAPIError,
    TransferClient,
    TransferData,
)
from globus_sdk.paging import LimitOffsetTotalPaginator, NullableMarkerPaginator

API = os.environ["FERRY_API"]
FILES = int(os.environ["FILES"])
checks = 0


def check(condition, what):
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1
    print("ok", checks, "-", what, flush=True)


def expect_error(call, status, code, what):
    try:
        call()
    except TransferAPIError as e:
        check(e.http_status == status, f"{what}: HTTP {e.http_status} (expected {status})")
        check(e.code == code, f"{what}: code {e.code} (expected {code})")
        check(bool(e.request_id), f"{what}: the error names its request_id")
        check(bool(e.message), f"{what}: the error has a message")
        return e
    raise AssertionError(f"{what}: no TransferAPIError raised")


def client(token):
    return TransferClient(base_url=API, authorizer=AccessTokenAuthorizer(token))


print("globus-sdk", globus_sdk.__version__, flush=True)
tc = client(os.environ["FERRY_TOKEN"])
other = client(os.environ["FERRY_USER_TOKEN"])

# endpoints: create (the SDK dropped create_endpoint; its generic post method posts the document)
ids = {}
for name, url in (("sdk-a", os.environ["ENDPOINT_A_URL"]), ("sdk-b", os.environ["ENDPOINT_B_URL"]),
                  ("sdk-slow", os.environ["SLOW_URL"])):
    created = tc.post("/v0.10/endpoint", data={"DATA_TYPE": "endpoint", "display_name": name, "url": url,
                                               "description": "made by globus-sdk"})
    check(created.http_status == 201 and created["canonical_name"] == "admin#" + name, f"created {name}")
    ids[name] = created["id"]
ep_a, ep_b, ep_slow = ids["sdk-a"], ids["sdk-b"], ids["sdk-slow"]
for i in range(101):  # more than one page of endpoint_search (the SDK asks for 100 a page)
    tc.post("/v0.10/endpoint", data={"display_name": f"sdk-page-{i:03d}", "url": os.environ["ENDPOINT_A_URL"]})

ep = tc.get_endpoint(ep_a)
check(ep["DATA_TYPE"] == "endpoint" and ep["display_name"] == "sdk-a", "get_endpoint")
check(tc.update_endpoint(ep_a, {"description": "site A"})["code"] == "Updated", "update_endpoint")
check(tc.get_endpoint(ep_a)["description"] == "site A", "update_endpoint took effect")
found = [e["display_name"] for e in tc.endpoint_search("sdk-a", filter_scope="my-endpoints")]
check(found == ["sdk-a"], "endpoint_search iterates the first page")
paged = [e["display_name"] for e in tc.paginated.endpoint_search("sdk-page").items()]
check(len(paged) == 101 and len(set(paged)) == 101, "paginated endpoint_search follows has_next_page: 101 results")
servers = list(tc.endpoint_server_list(ep_a))
check(len(servers) == 1 and servers[0]["uri"] == os.environ["ENDPOINT_A_URL"], "endpoint_server_list")

# file operations
check(tc.operation_mkdir(ep_a, "/sdk/made")["code"] == "DirectoryCreated", "operation_mkdir")
expect_error(lambda: tc.operation_mkdir(ep_a, "/sdk/made"), 409, "ExternalError.MkdirFailed.Exists", "mkdir twice")
check(tc.operation_rename(ep_a, "/sdk/made", "/sdk/renamed")["code"] == "FileRenamed", "operation_rename")
names = sorted(f["name"] for f in tc.operation_ls(ep_a, path="/sdk"))
check(names == ["file.txt", "renamed", "tree"], f"operation_ls lists /sdk: {names}")
txt = [f["name"] for f in tc.operation_ls(ep_a, path="/sdk/tree", filter="name:~*.txt", orderby="name DESC")]
check(len(txt) == FILES and txt == sorted(txt, reverse=True), "operation_ls with filter and orderby")
page = tc.operation_ls(ep_a, path="/sdk/tree", limit=2, offset=1)
check(len(page["DATA"]) == 2 and page["has_next_page"], "operation_ls with limit and offset")
stat = tc.operation_stat(ep_a, "/sdk/file.txt")
check(stat["type"] == "file" and stat["size"] == 12, "operation_stat")
expect_error(lambda: tc.operation_ls(ep_a, path="/sdk/none"), 404, "ClientError.NotFound", "ls of a missing path")

# a transfer, waited for with the SDK's task_wait
submission_id = tc.get_submission_id()["value"]
deadline = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=2)
tdata = TransferData(ep_a, ep_b, label="sdk tree", submission_id=submission_id, sync_level="checksum",
                     verify_checksum=True, deadline=deadline, notify_on_succeeded=False)
tdata.add_item("/sdk/tree", "/copy/tree", recursive=True)
tdata.add_item("/sdk/file.txt", "/copy/file.txt")
result = tc.submit_transfer(tdata)
check(result["code"] == "Accepted" and result["submission_id"] == submission_id, "submit_transfer")
task_id = result["task_id"]
again = tc.submit_transfer(tdata)
check(again["task_id"] == task_id and again["code"] == "Duplicate", "the same submission_id runs once")
check(tc.task_wait(task_id, timeout=180, polling_interval=1), "task_wait ends before its timeout")
task = tc.get_task(task_id)
check(task["status"] == "SUCCEEDED", f"get_task: {task['status']} {task['fatal_error']}")
check(task["label"] == "sdk tree" and task["files_transferred"] == FILES + 1, "the task's counters")
check(task["sync_level"] == 3 and task["verify_checksum"], "the task echoes its options")

events = list(tc.task_event_list(task_id))
check([e["code"] for e in events][-1] == "STARTED" and events[0]["code"] == "SUCCEEDED", "task_event_list")
errors = list(tc.task_event_list(task_id, query_params={"filter": "is_error:1"}))
check(errors == [], "task_event_list filtered to errors")
small_pages = LimitOffsetTotalPaginator(
    tc.task_event_list, items_key="DATA", get_page_size=lambda page: len(page["DATA"]),
    max_total_results=1000, page_size=1, client_args=(task_id,), client_kwargs={})
check([e["code"] for e in small_pages.items()] == [e["code"] for e in events],
      "task_event_list paged one event a page by offset and total")
default_pages = list(tc.paginated.task_event_list(task_id).items())
check(len(default_pages) == len(events), "paginated task_event_list")

transferred = list(tc.paginated.task_successful_transfers(task_id).items())
check(len(transferred) == FILES + 1, f"paginated task_successful_transfers follows next_marker: {len(transferred)}")
check(sorted(t["destination_path"] for t in transferred)[0] == "/copy/file.txt", "successful transfer paths")
first = tc.task_successful_transfers(task_id)
check(first["next_marker"] is not None and len(first["DATA"]) < FILES + 1,
      "successful_transfers is marker paged (the server pages 2 a time)")
check(list(tc.paginated.task_skipped_errors(task_id).items()) == [], "task_skipped_errors")
check(tc.task_pause_info(task_id)["DATA_TYPE"] == "pause_info_limited", "task_pause_info")

listed = [t["task_id"] for t in tc.task_list(filter="type:TRANSFER/status:SUCCEEDED", orderby="request_time DESC")]
check(task_id in listed, "task_list with filter and orderby")
check(task_id in [t["task_id"] for t in tc.paginated.task_list().items()], "paginated task_list")
one_a_page = LimitOffsetTotalPaginator(
    tc.task_list, items_key="DATA", get_page_size=lambda page: len(page["DATA"]),
    max_total_results=1000, page_size=1, client_args=(), client_kwargs={})
check(task_id in [t["task_id"] for t in one_a_page.items()], "task_list paged one task a page")
expect_error(lambda: tc.update_task(task_id, {"label": "late"}), 409, "ClientError.Conflict",
             "update_task of an ended task")

# a running task: update, cancel
slow = TransferData(ep_slow, ep_b, label="slow")
slow.add_item("/big.bin", "/copy/big.bin")
slow_id = tc.submit_transfer(slow)["task_id"]
check(tc.update_task(slow_id, {"label": "renamed", "deadline": deadline.isoformat()})["code"] == "Updated",
      "update_task of a running task")
check(tc.get_task(slow_id)["label"] == "renamed", "update_task took effect")
check(tc.cancel_task(slow_id)["code"] == "Canceled", "cancel_task")
check(tc.task_wait(slow_id, timeout=60, polling_interval=1), "a cancelled task ends")
cancelled = tc.get_task(slow_id)
check(cancelled["status"] == "FAILED" and cancelled["fatal_error"]["code"] == "CANCELED", "it ended cancelled")

# a delete task
ddata = DeleteData(ep_b, recursive=True, label="sdk delete")
ddata.add_item("/copy/tree")
delete_id = tc.submit_delete(ddata)["task_id"]
check(tc.task_wait(delete_id, timeout=120, polling_interval=1), "task_wait on a delete task")
check(tc.get_task(delete_id)["status"] == "SUCCEEDED", "submit_delete succeeded")
expect_error(lambda: tc.operation_stat(ep_b, "/copy/tree"), 404, "ClientError.NotFound", "the tree is gone")

# errors the SDK raises
# encrypt_data on clear-text (ftp://) endpoints: they cannot encrypt data channels
bad = TransferData(ep_a, ep_b, encrypt_data=True)
bad.add_item("/sdk/file.txt", "/x")
e = expect_error(lambda: tc.submit_transfer(bad), 400, "ClientError.BadRequest", "encrypt_data")
check(e.raw_json.get("field") == "encrypt_data", "the 400 names the field")
unknown = TransferData(ep_a, ep_b, additional_fields={"verify_checksums": True})
unknown.add_item("/sdk/file.txt", "/x")
e = expect_error(lambda: tc.submit_transfer(unknown), 400, "ClientError.BadRequest", "a misspelt field")
check(e.raw_json.get("field") == "verify_checksums", "the 400 names the unknown field")
empty = TransferData(ep_a, ep_b)
expect_error(lambda: tc.submit_transfer(empty), 400, "ClientError.BadRequest", "a transfer without items")
expect_error(lambda: other.get_endpoint(ep_a), 404, "ClientError.NotFound", "another user's endpoint")
expect_error(lambda: other.get_task(task_id), 404, "ClientError.NotFound", "another user's task")
expect_error(lambda: other.cancel_task(slow_id), 404, "ClientError.NotFound", "cancelling another user's task")
expect_error(lambda: client("not-a-token").task_list(), 401, "AuthenticationFailed", "a wrong token")

check(tc.delete_endpoint(ep_slow)["code"] == "Deleted", "delete_endpoint")
expect_error(lambda: tc.get_endpoint(ep_slow), 404, "ClientError.NotFound", "a deleted endpoint")

print(f"{checks} passed, 0 failed", flush=True)
