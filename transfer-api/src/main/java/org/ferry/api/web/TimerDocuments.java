package org.ferry.api.web;

import org.ferry.api.command.TimerDefinition;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.document.TimerRequest;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.service.TimeValues;
import org.springframework.stereotype.Component;

/**
 * Maps the timer documents of {@code POST /timer} and {@code PATCH /timer/{id}} (Globus Timers'
 * {@code {"timer": {...}}}) to a {@link TimerDefinition}, field by field: times parsed by name
 * ({@code timer.schedule.start}), the transfer document checked as {@code POST /transfer} checks
 * one, its errors named under {@code timer.body}.
 */
@Component
public class TimerDocuments {

    private final TransferDocuments transfers;

    /** @param transfers maps the timer's transfer document */
    public TimerDocuments(TransferDocuments transfers) {
        this.transfers = transfers;
    }

    /**
     * @param request {@code {"timer": {...}}}
     * @return the timer it defines (fields left out are null)
     * @throws InvalidRequestException naming the field
     * @throws NotSupportedException naming {@code timer.timer_type} for a type other than transfer
     */
    public TimerDefinition definition(TimerRequest request) {
        if (request == null || request.timer() == null) {
            throw new InvalidRequestException("timer", "The body must be {\"timer\": {...}}");
        }
        TimerRequest.TimerFields fields = request.timer();
        if (fields.timerType() != null && !"transfer".equals(fields.timerType())) {
            throw new NotSupportedException("timer.timer_type", "timer.timer_type: Ferry's timers run transfers only");
        }
        if (fields.resourceServer() != null && !"transfer.api.globus.org".equals(fields.resourceServer())) {
            throw new InvalidRequestException(
                    "timer.resource_server",
                    "timer.resource_server must be transfer.api.globus.org or absent; was '" + fields.resourceServer()
                            + "'");
        }
        return new TimerDefinition(fields.name(), schedule(fields.schedule()), body(fields.body()), fields.notifyOn());
    }

    private TransferSubmission body(org.ferry.api.document.TransferRequest body) {
        if (body == null) {
            return null;
        }
        try {
            return transfers.submission(body);
        } catch (NotSupportedException e) {
            throw new NotSupportedException(prefixed(e.field()), "timer.body: " + e.getMessage());
        } catch (InvalidRequestException e) {
            throw new InvalidRequestException(prefixed(e.field()), "timer.body: " + e.getMessage());
        }
    }

    private static String prefixed(String field) {
        return field == null ? "timer.body" : "timer.body." + field;
    }

    private static TimerDefinition.Schedule schedule(TimerRequest.Schedule given) {
        if (given == null) {
            return null;
        }
        TimerDefinition.End end = null;
        if (given.end() != null) {
            TimerRequest.End e = given.end();
            end = new TimerDefinition.End(
                    e.condition(),
                    e.count() != null ? e.count() : e.iterations(),
                    TimeValues.parse("timer.schedule.end.datetime", e.datetime()));
        }
        return new TimerDefinition.Schedule(
                given.type(),
                given.intervalSeconds(),
                given.cronExpression(),
                given.timeZone(),
                TimeValues.parse("timer.schedule.start", given.start()),
                TimeValues.parse("timer.schedule.datetime", given.datetime()),
                end);
    }
}
