package org.ferry.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several hosts on this machine: one Linux network namespace each, joined by veth pairs to a bridge
 * in a namespace of its own (the "switch"), all on {@value #SUBNET}.0/24, so that every host reaches
 * every other one by its address, as machines on one LAN do. Each host namespace gets a hosts file
 * ({@code /etc/netns/NAME/hosts}, which {@code ip netns exec} mounts over /etc/hosts) mapping this
 * machine's host name to the host's address: the Globus tools look their own name up, and give
 * their address to peers. Made by {@link #create} and removed by {@link #close} (namespaces,
 * their veths and processes, the hosts files); names carry this process's id, so that runs never
 * share one. Needs root and iproute2.
 */
final class NamespaceHosts implements AutoCloseable {

    /** The first three octets of the hosts' addresses: host {@code i} (from 1) is {@code SUBNET.i}. */
    static final String SUBNET = "10.77.0";

    /** Prefix of every namespace a benchmark makes; {@code bench/run} removes ones a killed run left. */
    static final String PREFIX = "ferry-xh-";

    private final String tag;
    private final String switchNamespace;
    private final Map<String, Host> hosts;

    /**
     * One host.
     *
     * @param name the benchmark's name for it, e.g. {@code client}
     * @param namespace its network namespace
     * @param veth its end of the veth pair (inside {@code namespace})
     * @param address its IPv4 address
     */
    record Host(String name, String namespace, String veth, String address) {

        /**
         * @param command a program and its arguments
         * @return the command run inside this host's namespace, with {@code GLOBUS_HOSTNAME} set to
         *     its address (what globus-gridftp-server and globus-url-copy announce)
         */
        List<String> exec(List<String> command) {
            List<String> wrapped =
                    new ArrayList<>(List.of("ip", "netns", "exec", namespace, "env", "GLOBUS_HOSTNAME=" + address));
            wrapped.addAll(command);
            return wrapped;
        }
    }

    private NamespaceHosts(String tag, String switchNamespace, Map<String, Host> hosts) {
        this.tag = tag;
        this.switchNamespace = switchNamespace;
        this.hosts = hosts;
    }

    /**
     * Makes the switch and one namespace per name, each with its veth pair and address, lo up.
     *
     * @param names the hosts, in address order (the first gets {@code SUBNET.1})
     * @return the hosts; on failure everything made so far is removed again
     */
    static NamespaceHosts create(List<String> names) throws IOException, InterruptedException {
        String tag = Long.toString(ProcessHandle.current().pid());
        String switchNamespace = PREFIX + tag + "-sw";
        Map<String, Host> hosts = new LinkedHashMap<>();
        NamespaceHosts made = new NamespaceHosts(tag, switchNamespace, hosts);
        try {
            ip("netns", "add", switchNamespace);
            ip("-n", switchNamespace, "link", "add", "br0", "type", "bridge");
            ip("-n", switchNamespace, "link", "set", "br0", "up");
            ip("-n", switchNamespace, "link", "set", "lo", "up");
            String hostName = InetAddress.getLocalHost().getHostName();
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                String namespace = PREFIX + tag + "-" + name;
                // veth names: at most 15 characters ("fx" + pid + index + side)
                String veth = "fx" + tag + "h" + i;
                String port = "fx" + tag + "s" + i;
                String address = SUBNET + "." + (i + 1);
                ip("netns", "add", namespace);
                hosts.put(name, new Host(name, namespace, veth, address));
                ip("link", "add", veth, "type", "veth", "peer", "name", port);
                ip("link", "set", veth, "netns", namespace);
                ip("link", "set", port, "netns", switchNamespace);
                ip("-n", switchNamespace, "link", "set", port, "master", "br0");
                ip("-n", switchNamespace, "link", "set", port, "up");
                ip("-n", namespace, "addr", "add", address + "/24", "dev", veth);
                ip("-n", namespace, "link", "set", veth, "up");
                ip("-n", namespace, "link", "set", "lo", "up");
                Path etc = Path.of("/etc/netns", namespace);
                Files.createDirectories(etc);
                Files.writeString(
                        etc.resolve("hosts"), "127.0.0.1 localhost\n" + address + " " + hostName + " " + name + "\n");
            }
            return made;
        } catch (IOException | InterruptedException | RuntimeException e) {
            made.close();
            throw e;
        }
    }

    /**
     * @param name a host's name as given to {@link #create}
     * @return the host
     */
    Host host(String name) {
        Host host = hosts.get(name);
        if (host == null) {
            throw new IllegalArgumentException("no host " + name + " in " + hosts.keySet());
        }
        return host;
    }

    /**
     * Limits what every host sends to {@code rate} (a token bucket on its veth: {@code tc qdisc add
     * dev VETH root tbf rate RATE burst 256kb latency 50ms}), so that every link of the LAN carries
     * at most that much each way.
     *
     * @param rate a tc rate, e.g. {@code 1gbit}
     */
    void limit(String rate) throws IOException, InterruptedException {
        for (Host host : hosts.values()) {
            Command.check(
                    List.of(
                            "tc",
                            "-n",
                            host.namespace(),
                            "qdisc",
                            "replace",
                            "dev",
                            host.veth(),
                            "root",
                            "tbf",
                            "rate",
                            rate,
                            "burst",
                            "256kb",
                            "latency",
                            "50ms"),
                    30);
        }
    }

    /** Removes the rate limit of {@link #limit}. */
    void unlimit() throws IOException, InterruptedException {
        for (Host host : hosts.values()) {
            Command.run(List.of("tc", "-n", host.namespace(), "qdisc", "del", "dev", host.veth(), "root"), 30);
        }
    }

    /** @return the id that names this run's namespaces */
    String tag() {
        return tag;
    }

    /**
     * Ends every process left in the hosts' namespaces, then removes the namespaces (their veths go
     * with them) and the hosts files. Never throws.
     */
    @Override
    public void close() {
        List<String> namespaces = new ArrayList<>();
        hosts.values().forEach(h -> namespaces.add(h.namespace()));
        namespaces.add(switchNamespace);
        for (String namespace : namespaces) {
            remove(namespace);
        }
    }

    /** Ends the processes of one namespace, deletes it and its /etc/netns directory. */
    static void remove(String namespace) {
        try {
            Command.Outcome pids = Command.run(List.of("ip", "netns", "pids", namespace), 30);
            for (String pid : pids.output().split("\\s+")) {
                if (pid.matches("\\d+")) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            Command.run(List.of("ip", "netns", "del", namespace), 30);
            Path etc = Path.of("/etc/netns", namespace);
            Files.deleteIfExists(etc.resolve("hosts"));
            Files.deleteIfExists(etc);
        } catch (IOException | RuntimeException e) {
            System.err.println("could not remove namespace " + namespace + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Command.check(command, 30);
    }
}
