package org.ferry.scheduler.notify;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.ferry.api.domain.EventCode;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.state.NotificationRows;
import org.ferry.scheduler.state.NotificationRows.Claimed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.mail.MailException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Sends the e-mail outbox ({@code task_notification}) through Spring Mail: every poll interval it
 * claims the due rows, composes each message ({@link NotificationMessage}: text and HTML parts) and
 * hands it to the SMTP server configured by {@code spring.mail.*}. Delivery never changes a task:
 * the row was queued in the transaction that ended the task and is sent after the commit; a mail
 * server that is down or refuses makes a {@code NOTIFICATION_FAILED} event and a retry after a
 * doubling back-off ({@code ferry.mail.retry.*}); a delivered message a {@code NOTIFICATION_SENT}
 * event. Without {@code spring.mail.host} there is no mail sender and the rows wait.
 */
@Component
public class Notifier implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Notifier.class);

    /** How long a claim holds before another instance may send the row (far above SMTP timeouts). */
    private static final Duration CLAIM = Duration.ofMinutes(5);

    private static final int BATCH = 20;

    private final NotificationRows outbox;
    private final TaskReports reports;
    private final TaskStore tasks;
    private final TransactionTemplate transactions;
    private final Optional<JavaMailSender> sender;
    private final String from;
    private final Duration pollInterval;
    private final Duration initialDelay;
    private final Duration maxDelay;
    private final int maxAttempts;
    private final String instance = "notifier-" + UUID.randomUUID();

    private ScheduledExecutorService executor;
    private volatile boolean running;

    /**
     * @param outbox the outbox rows
     * @param reports reads what a message tells
     * @param tasks writes the NOTIFICATION_* events
     * @param transactions transactions
     * @param sender the mail sender (present when {@code spring.mail.host} is set)
     * @param from the sender address ({@code ferry.mail.from})
     * @param pollInterval how often the outbox is read ({@code ferry.mail.poll-interval})
     * @param initialDelay the first retry's delay ({@code ferry.mail.retry.initial-delay}); each
     *     later one doubles, up to {@code maxDelay}
     * @param maxDelay the longest delay between attempts ({@code ferry.mail.retry.max-delay})
     * @param maxAttempts attempts before the message is given up ({@code ferry.mail.retry.max-attempts})
     */
    public Notifier(
            NotificationRows outbox,
            TaskReports reports,
            TaskStore tasks,
            TransactionTemplate transactions,
            Optional<JavaMailSender> sender,
            @Value("${ferry.mail.from:ferry@localhost}") String from,
            @Value("${ferry.mail.poll-interval:2s}") Duration pollInterval,
            @Value("${ferry.mail.retry.initial-delay:30s}") Duration initialDelay,
            @Value("${ferry.mail.retry.max-delay:1h}") Duration maxDelay,
            @Value("${ferry.mail.retry.max-attempts:20}") int maxAttempts) {
        this.outbox = outbox;
        this.reports = reports;
        this.tasks = tasks;
        this.transactions = transactions;
        this.sender = sender;
        this.from = from;
        this.pollInterval = pollInterval;
        this.initialDelay = initialDelay;
        this.maxDelay = maxDelay;
        this.maxAttempts = maxAttempts;
    }

    @Override
    public synchronized void start() {
        running = true;
        if (sender.isEmpty()) {
            log.info("No mail server configured (spring.mail.host): task notifications wait in the outbox");
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "ferry-notifier");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(
                this::sendDue, pollInterval.toMillis(), pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Sends what is due now; public for a test or an admin command that must not wait a poll. */
    public void sendDue() {
        JavaMailSender mail = sender.orElse(null);
        if (mail == null) {
            return;
        }
        try {
            Instant now = Instant.now();
            List<Claimed> claimed =
                    transactions.execute(status -> outbox.claimDue(instance, now, now.plus(CLAIM), maxAttempts, BATCH));
            for (Claimed row : claimed == null ? List.<Claimed>of() : claimed) {
                send(mail, row);
            }
        } catch (RuntimeException e) {
            log.warn("Sending notifications failed: {}", e.toString());
        }
    }

    private void send(JavaMailSender sender, Claimed row) {
        Optional<TaskReport> report = reports.read(row.taskId(), row.kind(), Instant.now());
        if (report.isEmpty()) {
            // the task is gone or its owner removed the address: nothing to send, ever
            transactions.executeWithoutResult(status -> outbox.markSent(row, instance, Instant.now()));
            return;
        }
        NotificationMessage message = NotificationMessage.of(report.get());
        String to = report.get().email();
        try {
            MimeMessage mime = sender.createMimeMessage();
            MimeMessageHelper helper = new MimeMessageHelper(mime, true, "UTF-8");
            helper.setFrom(from);
            helper.setTo(to);
            helper.setSubject(message.subject());
            helper.setText(message.text(), message.html());
            sender.send(mime);
        } catch (MailException | MessagingException e) {
            failed(row, to, e);
            return;
        }
        transactions.executeWithoutResult(status -> {
            Instant sent = Instant.now();
            if (outbox.markSent(row, instance, sent)) {
                tasks.insertEvent(
                        row.taskId(),
                        EventCode.NOTIFICATION_SENT,
                        "The " + row.kind() + " e-mail was sent to " + to,
                        "{\"kind\":\"" + row.kind() + "\"}",
                        sent);
            }
        });
        log.info("Task {}: {} e-mail sent to {}", row.taskId(), row.kind(), to);
    }

    private void failed(Claimed row, String to, Exception e) {
        int attempt = row.attempts() + 1;
        Duration delay = backOff(attempt);
        Instant now = Instant.now();
        Instant next = now.plus(delay);
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String description = attempt >= maxAttempts
                ? "The " + row.kind() + " e-mail to " + to + " could not be sent (attempt " + attempt + " of "
                        + maxAttempts + "); giving up: " + why
                : "The " + row.kind() + " e-mail to " + to + " could not be sent (attempt " + attempt + " of "
                        + maxAttempts + "); trying again in " + delay.toSeconds() + " s: " + why;
        transactions.executeWithoutResult(status -> {
            outbox.markFailed(row, instance, next, why);
            tasks.insertEvent(
                    row.taskId(),
                    EventCode.NOTIFICATION_FAILED,
                    description,
                    "{\"kind\":\"" + row.kind() + "\",\"attempts\":" + attempt + "}",
                    now);
        });
        log.warn("Task {}: {}", row.taskId(), description);
    }

    /** @return the delay after the given failed attempt (1-based): initial, doubled, capped */
    Duration backOff(int attempt) {
        Duration delay = initialDelay;
        for (int i = 1; i < attempt && delay.compareTo(maxDelay) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
    }
}
