package org.ferry.api.service;

import java.util.List;
import org.ferry.api.command.DryRun;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.domain.Endpoint;

/**
 * The port behind {@code POST /transfer/dry_run}: the scheduler, which owns crawling, implements
 * it (the API never imports the scheduler).
 */
public interface TransferPreview {

    /**
     * A checked transfer with its endpoints resolved.
     *
     * @param source source endpoint
     * @param destination destination endpoint
     * @param user the caller, whose endpoint activations open the sessions
     * @param transfer the items and options
     * @param additional further destinations (Ferry's multicast extension), checked as a
     *     submission checks them; empty for one destination
     */
    record Plan(
            Endpoint source,
            Endpoint destination,
            String user,
            TransferSubmission transfer,
            List<Endpoint> additional) {}

    /**
     * Crawls both endpoints as the task would and changes nothing on either.
     *
     * @param plan the checked transfer
     * @return what would be copied, skipped, excluded and deleted
     * @throws org.ferry.api.error.EndpointException if an endpoint fails or cannot be reached
     * @throws org.ferry.api.error.NotFoundException naming {@code DATA} for a missing source without
     *     {@code skip_source_errors}
     * @throws org.ferry.api.error.InvalidRequestException for an item that cannot work (a recursive
     *     item's source is a file, ...)
     */
    DryRun preview(Plan plan);
}
