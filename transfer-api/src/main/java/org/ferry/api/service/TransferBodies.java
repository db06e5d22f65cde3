package org.ferry.api.service;

import org.ferry.api.command.TransferSubmission;

/**
 * The transfer documents that timers store (their {@code body}, JSON in the shape of
 * {@code POST /transfer}'s document): a port the API's web layer implements, so that the timer
 * service stores a submission, and the timers' runs (the scheduler) check a stored document
 * exactly as {@code POST /transfer} checks one, without either knowing the wire shape.
 */
public interface TransferBodies {

    /**
     * @param document a stored transfer document (JSON)
     * @return the submission it asks for
     * @throws org.ferry.api.error.InvalidRequestException naming the field for an invalid value
     *     (e.g. a deadline that has passed since the timer was made)
     * @throws org.ferry.api.error.NotSupportedException naming the field for an option Ferry does
     *     not implement
     */
    TransferSubmission read(String document);

    /**
     * @param transfer a checked transfer
     * @return its transfer document (JSON) to store, without a submission id (each run gets one)
     */
    String write(TransferSubmission transfer);
}
