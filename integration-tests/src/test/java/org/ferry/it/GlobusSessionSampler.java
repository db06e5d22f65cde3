package org.ferry.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.client.GlobusGridFtpServer;

/**
 * Watches the session processes of a globus-gridftp-server (it forks one per control connection)
 * while a task runs, from outside: which sessions there were, and how many of them were alive at
 * once apart from the first one. A task's first session is its planner's (crawl, MKD), which the
 * service closes before the chunks move; what is alive at once beside it is the movers' session
 * pairs, each with its own session on this server.
 */
final class GlobusSessionSampler implements AutoCloseable {

    private static final long PERIOD_MILLIS = 5;

    private final GlobusGridFtpServer server;
    private final Set<Long> before;
    private final Set<Long> seen = ConcurrentHashMap.newKeySet();
    private final AtomicLong first = new AtomicLong(-1);
    private final AtomicInteger mostAtOnceAfterFirst = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;

    private GlobusSessionSampler(GlobusGridFtpServer server) {
        this.server = server;
        this.before = pids(server.sessions());
        this.thread = new Thread(this::sample, "globus-session-sampler");
        this.thread.setDaemon(true);
    }

    /**
     * Starts sampling every few milliseconds; sessions alive at the start (other clients') do not count.
     *
     * @param server the server to watch
     * @return the running sampler; close it to stop
     */
    static GlobusSessionSampler start(GlobusGridFtpServer server) {
        GlobusSessionSampler sampler = new GlobusSessionSampler(server);
        sampler.thread.start();
        return sampler;
    }

    private void sample() {
        while (running) {
            Set<Long> alive = pids(server.sessions());
            alive.removeAll(before);
            for (long pid : alive) {
                if (seen.add(pid)) {
                    first.compareAndSet(-1, pid);
                }
            }
            alive.remove(first.get());
            mostAtOnceAfterFirst.accumulateAndGet(alive.size(), Math::max);
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static Set<Long> pids(List<ProcessHandle> sessions) {
        Set<Long> pids = new HashSet<>();
        sessions.stream().filter(GlobusSessionSampler::running).forEach(p -> pids.add(p.pid()));
        return pids;
    }

    /**
     * @return true unless the process ended: ProcessHandle counts a zombie (ended, not yet reaped by
     *     the server) as alive, so on Linux its state in {@code /proc} decides
     */
    private static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            int afterName = stat.lastIndexOf(')'); // the state follows the command name in parentheses
            return afterName < 0 || afterName + 2 >= stat.length() || stat.charAt(afterName + 2) != 'Z';
        } catch (IOException e) {
            return !Files.isDirectory(Path.of("/proc/self")); // no procfs: trust isAlive; else it just ended
        }
    }

    /** @return the most sessions alive at one sample, the first session seen not counted */
    int mostAtOnceAfterFirst() {
        return mostAtOnceAfterFirst.get();
    }

    /** Stops sampling (after one last sample's worth of time). */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(1000);
    }

    @Override
    public String toString() {
        return seen.size() + " session(s) seen, at most " + mostAtOnceAfterFirst.get() + " at once besides the first";
    }
}
