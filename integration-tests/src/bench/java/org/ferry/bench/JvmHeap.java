package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads another JVM's memory from outside: heap after a full GC with jcmd, resident set from /proc. */
final class JvmHeap {

    /**
     * A heap space's line in {@code GC.heap_info}: one for G1 ({@code garbage-first heap total
     * 262144K, used 5120K [...]}), one per generation for the parallel and serial collectors
     * ({@code PSYoungGen total ..., used ...K}, {@code ParOldGen ...}); Metaspace's line has no
     * total and is not heap.
     */
    private static final Pattern USED = Pattern.compile("total \\d+K, used (\\d+)K");

    private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    private JvmHeap() {}

    /**
     * Forces a full collection ({@code jcmd PID GC.run}) and reads the heap in use
     * ({@code GC.heap_info}, the sum over its heap spaces: the parallel collector, which
     * bin/ferry-gridftp starts, lists the young generation, nearly empty after the collection,
     * before the old one), twice, keeping the smaller figure (a second GC frees what a finalizer or
     * reference queue kept alive through the first).
     *
     * @return live heap bytes
     */
    static long liveHeapBytes(long pid) throws IOException, InterruptedException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            Command.check(List.of(jcmd(), Long.toString(pid), "GC.run"), 120);
            String info = Command.check(List.of(jcmd(), Long.toString(pid), "GC.heap_info"), 120)
                    .output();
            Matcher matcher = USED.matcher(info);
            long usedKib = 0;
            boolean found = false;
            while (matcher.find()) {
                usedKib += Long.parseLong(matcher.group(1));
                found = true;
            }
            if (!found) {
                throw new IllegalStateException("no heap figure in jcmd GC.heap_info:\n" + info);
            }
            best = Math.min(best, usedKib * 1024);
        }
        return best;
    }

    /** @return the process's resident set size in bytes (heap, direct buffers, thread stacks, code) */
    static long residentBytes(long pid) throws IOException {
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        Matcher matcher = RSS.matcher(status);
        if (!matcher.find()) {
            throw new IllegalStateException("no VmRSS in /proc/" + pid + "/status");
        }
        return Long.parseLong(matcher.group(1)) * 1024;
    }

    private static String jcmd() {
        Path candidate = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        return Files.isExecutable(candidate) ? candidate.toString() : "jcmd";
    }
}
