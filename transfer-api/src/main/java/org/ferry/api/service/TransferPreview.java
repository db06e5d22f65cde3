package org.ferry.api.service;

import java.util.List;
import org.ferry.api.document.DryRunDocument;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.domain.TransferItem;

/**
 * The port behind {@code POST /transfer/dry_run}: the scheduler, which owns crawling, implements
 * it (the API never imports the scheduler).
 */
public interface TransferPreview {

    /**
     * A checked transfer document.
     *
     * @param source source endpoint
     * @param destination destination endpoint
     * @param user the caller, whose endpoint activations open the sessions
     * @param items the items in order
     * @param syncLevel sync level or null
     * @param skipSourceErrors skip missing or unreadable source paths
     * @param deleteDestinationExtra list destination extras under recursive items
     * @param filterRules the filter rules
     */
    record Plan(
            Endpoint source,
            Endpoint destination,
            String user,
            List<TransferItem> items,
            SyncLevel syncLevel,
            boolean skipSourceErrors,
            boolean deleteDestinationExtra,
            FilterRules filterRules) {}

    /**
     * Crawls both endpoints as the task would and changes nothing on either.
     *
     * @param plan the checked document
     * @return what would be copied, skipped, excluded and deleted
     * @throws org.ferry.api.error.EndpointException if an endpoint fails or cannot be reached
     * @throws org.ferry.api.error.NotFoundException naming {@code DATA[i].source_path} for a missing
     *     source without {@code skip_source_errors}
     * @throws org.ferry.api.error.InvalidRequestException for an item that cannot work (a recursive
     *     item's source is a file, ...)
     */
    DryRunDocument preview(Plan plan);
}
