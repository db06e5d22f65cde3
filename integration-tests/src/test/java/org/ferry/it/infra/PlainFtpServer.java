package org.ferry.it.infra;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * A plain FTP server that speaks only stream mode: pyftpdlib (pinned, from PyPI, in a virtualenv
 * of its own) serving one directory to anonymous users with write permission, on a free loopback
 * port, as a separate process ({@code src/test/resources/pyftpdlib/serve.py}). It refuses MODE E
 * (501) and lists no {@code PARALLEL} in FEAT, as an ordinary FTP server does; it supports REST
 * with STOR and RETR in stream mode, SIZE, MLST and MLSD (RFC 3659).
 */
public final class PlainFtpServer implements AutoCloseable {

    /** The pyftpdlib release the tests pin. */
    public static final String PYFTPDLIB = "2.2.0";

    private static final Pattern LISTENING = Pattern.compile("pyftpdlib listening on (\\d+)");

    private final Process process;
    private final Path log;
    private final int port;

    private PlainFtpServer(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts a server over {@code root} and waits until it listens (at most 60 s).
     *
     * @param root the directory served as {@code /}
     * @param work a directory of the test's own (the script and the log go there)
     */
    public static PlainFtpServer start(Path root, Path work) throws Exception {
        Path python =
                PythonVirtualenv.with("pyftpdlib-venv", "pyftpdlib", "__ver__", "pyftpdlib==" + PYFTPDLIB, PYFTPDLIB);
        Files.createDirectories(work);
        Path script = work.resolve("serve.py");
        try (InputStream in = PlainFtpServer.class.getResourceAsStream("/pyftpdlib/serve.py")) {
            Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Path log = work.resolve("pyftpdlib.log");
        Process process =
                PythonVirtualenv.run(List.of(python.toString(), script.toString(), root.toString()), Map.of(), log);
        Callable<Matcher> listening = () -> LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
        try {
            Matcher matcher = Awaitility.await("pyftpdlib listening")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .failFast(() -> !process.isAlive() && !listening.call().find())
                    .until(listening, Matcher::find);
            return new PlainFtpServer(process, log, Integer.parseInt(matcher.group(1)));
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("pyftpdlib did not start:\n" + Files.readString(log), e);
        }
    }

    /** @return its control port on 127.0.0.1 */
    public int port() {
        return port;
    }

    /** @return what it logged so far (commands and replies) */
    public String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
