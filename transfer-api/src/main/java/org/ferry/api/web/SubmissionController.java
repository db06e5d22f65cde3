package org.ferry.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.ferry.api.command.DeleteSubmission;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.document.DeleteRequest;
import org.ferry.api.document.DryRunDocument;
import org.ferry.api.document.LinkDocument;
import org.ferry.api.document.SubmissionIdDocument;
import org.ferry.api.document.SubmissionResultDocument;
import org.ferry.api.document.TransferRequest;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.DeleteService;
import org.ferry.api.service.Submission;
import org.ferry.api.service.SubmissionIds;
import org.ferry.api.service.TransferService;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Submission: {@code GET /submission_id}, {@code POST /transfer}, {@code POST /transfer/dry_run},
 * {@code POST /delete}. */
@RestController
@RequestMapping(path = "/v0.10", produces = "application/json")
public class SubmissionController {

    private final TransferService transfers;
    private final DeleteService deletes;
    private final SubmissionIds submissionIds;
    private final TransferDocuments documents;

    /**
     * @param transfers transfer submission
     * @param deletes delete submission
     * @param submissionIds duplicate detection
     * @param documents maps the documents to submissions, field by field
     */
    public SubmissionController(
            TransferService transfers,
            DeleteService deletes,
            SubmissionIds submissionIds,
            TransferDocuments documents) {
        this.transfers = transfers;
        this.deletes = deletes;
        this.submissionIds = submissionIds;
        this.documents = documents;
    }

    /** {@code GET /submission_id}: a fresh submission id. */
    @GetMapping("/submission_id")
    public SubmissionIdDocument submissionId(Caller caller) {
        return new SubmissionIdDocument("submission_id", UUID.randomUUID().toString());
    }

    /**
     * {@code POST /transfer}: 202 {@code transfer_result} with code {@code Accepted}, or
     * {@code Duplicate} for a submission id used before.
     */
    @PostMapping("/transfer")
    public ResponseEntity<SubmissionResultDocument> transfer(
            Caller caller, @RequestBody TransferRequest body, HttpServletRequest request) {
        TransferSubmission transfer = documents.submission(body);
        Submission submission = once(caller, transfer.submissionId(), () -> transfers.submit(caller, transfer));
        return accepted(submission, "transfer", request);
    }

    /**
     * {@code POST /transfer/dry_run}: checks a transfer document as {@code POST /transfer} does and
     * answers 200 {@code transfer_dry_run}: what the task would copy, skip, exclude and delete now.
     * Nothing is stored and nothing on either endpoint changes.
     */
    @PostMapping("/transfer/dry_run")
    public DryRunDocument dryRun(Caller caller, @RequestBody TransferRequest body) {
        return TransferDocuments.document(transfers.dryRun(caller, documents.submission(body)));
    }

    /** {@code POST /delete}: as {@code /transfer}, for a delete document. */
    @PostMapping("/delete")
    public ResponseEntity<SubmissionResultDocument> delete(
            Caller caller, @RequestBody DeleteRequest body, HttpServletRequest request) {
        DeleteSubmission delete = documents.submission(body);
        Submission submission = once(caller, delete.submissionId(), () -> deletes.submit(caller, delete));
        return accepted(submission, "delete", request);
    }

    /** A concurrent post with the same submission id that committed first wins. */
    private Submission once(Caller caller, String submissionId, Supplier<Submission> submit) {
        try {
            return submit.get();
        } catch (DataIntegrityViolationException raced) {
            Optional<Submission> earlier = submissionIds.earlier(caller, submissionId);
            return earlier.orElseThrow(() -> raced);
        }
    }

    private static ResponseEntity<SubmissionResultDocument> accepted(
            Submission submission, String what, HttpServletRequest request) {
        String taskId = submission.taskId().toString();
        String code = submission.duplicate() ? "Duplicate" : "Accepted";
        String message = submission.duplicate()
                ? "A " + what + " with this submission_id was already accepted"
                : "The " + what + " has been accepted and a task has been created and queued for execution";
        return ResponseEntity.status(HttpStatus.ACCEPTED)
                .body(new SubmissionResultDocument(
                        "transfer_result",
                        code,
                        message,
                        taskId,
                        submission.submissionId(),
                        new LinkDocument("link", "task/" + taskId + "?format=json", "related", "task", "related task"),
                        RequestIds.resource(request),
                        RequestIds.of(request)));
    }
}
