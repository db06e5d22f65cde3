package org.ferry.it.infra;

import com.github.dockerjava.api.DockerClient;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.testcontainers.containers.GenericContainer;

/**
 * Faults injected into a running container through the engine's API, as {@code docker kill},
 * {@code docker start}, {@code docker pause}/{@code unpause} and {@code docker network
 * disconnect}/{@code connect} would: the part dies with SIGKILL (no shutdown of any kind, then
 * its own crash recovery at the next start), freezes with its connections open, or vanishes from
 * the network (its published port refuses connections and the ones open through it break) while
 * it runs on. The container keeps its file system and its published port across all of them.
 */
public final class ContainerFaults {

    private static final Duration READY = Duration.ofSeconds(120);

    private final GenericContainer<?> container;
    private final Pattern ready;
    private String network;

    /**
     * @param container a started container
     * @param ready a line its log shows each time the part is ready to serve
     */
    public ContainerFaults(GenericContainer<?> container, Pattern ready) {
        this.container = container;
        this.ready = ready;
    }

    private DockerClient engine() {
        return container.getDockerClient();
    }

    /** Kills the part: SIGKILL to the container's processes, the container stays with its data. */
    public void kill() {
        engine().killContainerCmd(container.getContainerId()).withSignal("KILL").exec();
    }

    /** Starts the killed container again and waits until its log says the part is ready. */
    public void restart() {
        int before = readyLines();
        engine().startContainerCmd(container.getContainerId()).exec();
        Awaitility.await("the restarted container's readiness")
                .atMost(READY)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> readyLines() > before);
    }

    /** Freezes every process of the container (cgroup freezer): it answers nothing, closes nothing. */
    public void pause() {
        engine().pauseContainerCmd(container.getContainerId()).exec();
    }

    /** Thaws the container. */
    public void unpause() {
        engine().unpauseContainerCmd(container.getContainerId()).exec();
    }

    /** Disconnects the container from its network: its published port refuses, the part runs on. */
    public void cutNetwork() {
        network = container
                .getContainerInfo()
                .getNetworkSettings()
                .getNetworks()
                .keySet()
                .iterator()
                .next();
        engine().disconnectFromNetworkCmd()
                .withContainerId(container.getContainerId())
                .withNetworkId(network)
                .withForce(true)
                .exec();
    }

    /** Connects the container to its network again; the engine publishes its port again. */
    public void restoreNetwork() {
        engine().connectToNetworkCmd()
                .withContainerId(container.getContainerId())
                .withNetworkId(network)
                .exec();
    }

    /** A fault of a part, through the engine, and how the part comes back from it. */
    public enum Fault {
        /** SIGKILL to the container's processes; started again, the part recovers from its files. */
        KILLED {
            @Override
            public void strike(ContainerFaults part) {
                part.kill();
            }

            @Override
            public void heal(ContainerFaults part) {
                part.restart();
            }
        },
        /** Every process frozen with its connections open; thawed, it answers what waited. */
        PAUSED {
            @Override
            public void strike(ContainerFaults part) {
                part.pause();
            }

            @Override
            public void heal(ContainerFaults part) {
                part.unpause();
            }
        },
        /** Cut off its network: new connections refused, open ones broken; the part runs on. */
        CUT_OFF {
            @Override
            public void strike(ContainerFaults part) {
                part.cutNetwork();
            }

            @Override
            public void heal(ContainerFaults part) {
                part.restoreNetwork();
            }
        };

        /** Injects the fault. */
        public abstract void strike(ContainerFaults part);

        /** Ends it; after {@link #KILLED}, waits until the part is ready again. */
        public abstract void heal(ContainerFaults part);
    }

    private int readyLines() {
        Matcher lines = ready.matcher(container.getLogs());
        int count = 0;
        while (lines.find()) {
            count++;
        }
        return count;
    }
}
