package org.ferry.testing;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The container engine (Docker, or Podman's Docker API) the tests run their real parts in, and
 * the images they run. Two image sets, chosen by the system property {@code ferry.test.images}
 * (Maven property of the same name; surefire passes it on):
 *
 * <ul>
 *   <li>{@code local} (the default): the {@code ferry-test/*} images built on this machine from
 *       Debian packages by {@code integration-tests/images/build}, which the first container of a
 *       JVM runs (it builds nothing when the images are up to date); they are never pulled;
 *   <li>{@code standard}: the official images ({@code postgres}, {@code apache/kafka}), pulled as
 *       usual, on a machine that reaches a registry.
 * </ul>
 *
 * <p>Without a usable engine a test that needs one is skipped with the reason, except under CI
 * ({@code CI=true}), where it fails. As an {@link ExecutionCondition} ({@link RequiresContainers})
 * it decides before the class starts anything.
 */
public final class ContainerEngine implements ExecutionCondition {

    /** Label on every container the tests start: {@code docker ps --filter label=org.ferry.test}. */
    public static final String LABEL = "org.ferry.test";

    private static final String BUILD_SCRIPT = "integration-tests/images/build";

    private static boolean imagesReady;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String missing = unavailable();
        if (missing == null) {
            return ConditionEvaluationResult.enabled("a container engine is available");
        }
        if (Prerequisites.underCi()) {
            throw new IllegalStateException(missing + " (CI: .ci/run must start one)");
        }
        return ConditionEvaluationResult.disabled(missing);
    }

    /**
     * Skips the calling test (fails it under CI) when no container engine answers.
     *
     * @throws IllegalStateException under CI without an engine
     */
    public static void require() {
        String missing = unavailable();
        Prerequisites.require(missing == null, missing);
    }

    private static String unavailable() {
        return DockerClientFactory.instance().isDockerAvailable()
                ? null
                : "no container engine: Docker (or Podman's Docker API) does not answer; docs/testing.md";
    }

    /** @return true if the standard images are chosen ({@code -Dferry.test.images=standard}) */
    public static boolean standardImages() {
        String choice = System.getProperty("ferry.test.images", "local");
        if (!choice.equals("local") && !choice.equals("standard")) {
            throw new IllegalArgumentException("ferry.test.images must be local or standard, not " + choice);
        }
        return choice.equals("standard");
    }

    /**
     * The image of one part, from the chosen set.
     *
     * @param local the local image ({@code ferry-test/postgres:15})
     * @param standard the standard image it stands in for ({@code postgres:15})
     * @return the image to run; a local one declared a compatible substitute for the standard one
     */
    public static DockerImageName image(String local, String standard) {
        DockerImageName standardName = DockerImageName.parse(standard);
        return standardImages()
                ? standardName
                : DockerImageName.parse(local).asCompatibleSubstituteFor(standardName.getUnversionedPart());
    }

    /**
     * The pull policy of the local images: never pull; before the first container of the JVM
     * starts, run the build script (which builds nothing when the images are up to date). Asked
     * by Testcontainers when a container starts, so a class skipped for want of an engine builds
     * nothing.
     */
    private static boolean buildInsteadOfPull(DockerImageName image) {
        buildLocalImages();
        return false;
    }

    private static synchronized void buildLocalImages() {
        if (imagesReady) {
            return;
        }
        Path root = repositoryRoot();
        try {
            Path log = Files.createTempFile("ferry-test-images", ".log");
            Process build = new ProcessBuilder(root.resolve(BUILD_SCRIPT).toString())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!build.waitFor(15, TimeUnit.MINUTES)) {
                build.destroyForcibly();
                throw new IllegalStateException(BUILD_SCRIPT + " took more than 15 minutes:\n" + Files.readString(log));
            }
            if (build.exitValue() != 0) {
                throw new IllegalStateException(BUILD_SCRIPT + " failed (it needs root and debootstrap; or run with"
                        + " -Dferry.test.images=standard where images can be pulled):\n" + Files.readString(log));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + BUILD_SCRIPT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the test images", e);
        }
        imagesReady = true;
    }

    private static Path repositoryRoot() {
        String configured = System.getProperty("ferry.repo.root");
        if (configured != null) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
            if (Files.isExecutable(at.resolve(BUILD_SCRIPT))) {
                return at;
            }
        }
        throw new IllegalStateException(
                "cannot find " + BUILD_SCRIPT + " above " + Path.of("").toAbsolutePath());
    }

    /**
     * Makes a container build rather than pull a local image, labels it, and publishes {@code containerPort} on
     * 127.0.0.1 only, at a port picked free when the container is created (again at each creation
     * attempt, so a port taken meanwhile costs one attempt). The port stays the container's when
     * the engine restarts it after a kill, so clients configured with it reconnect.
     *
     * @param container a container not started yet
     * @param containerPort the port inside the container
     * @return the container
     */
    public static <C extends GenericContainer<C>> C onLoopback(C container, int containerPort) {
        if (!standardImages()) {
            container.withImagePullPolicy(ContainerEngine::buildInsteadOfPull);
        }
        return container
                .withLabels(Map.of(LABEL, "true"))
                .withStartupAttempts(3)
                .withCreateContainerCmdModifier(create -> create.getHostConfig()
                        .withPortBindings(new PortBinding(
                                Ports.Binding.bindIpAndPort("127.0.0.1", freeLoopbackPort()),
                                ExposedPort.tcp(containerPort))));
    }

    /**
     * A port free on 127.0.0.1 below the kernel's ephemeral range (32768 and up), where the
     * ports of outgoing connections cannot take it before the engine binds it.
     */
    private static int freeLoopbackPort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 32_000);
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no free loopback port in 20000-32000");
    }
}
