package org.ferry.it.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Several hosts on one machine (real-parts-recipes.md "Network namespaces as hosts"): one Linux
 * network namespace per host, each joined by a veth pair to a bridge in a hub namespace, and the
 * test's own (root) namespace joined to the same bridge, all in one /24 of 10/8 picked at random per
 * run. Names carry a random suffix (other runs and helpers make namespaces too). A host can refuse
 * every inbound connection (nftables input chain, policy drop, loopback and replies accepted), and
 * its link can be cut and restored. Closing kills every process left in the namespaces and deletes
 * them and the root end of the link; it also runs on a failed start. Needs root, {@code ip} and
 * {@code nft}.
 */
public final class NetworkNamespaces implements AutoCloseable {

    private final String prefix;
    private final String subnet;
    private final List<String> hosts = new ArrayList<>();
    private final String hub;
    private final String rootLink;

    private NetworkNamespaces(String prefix, String subnet) {
        this.prefix = prefix;
        this.subnet = subnet;
        this.hub = prefix + "-hub";
        this.rootLink = prefix + "r";
    }

    /**
     * @param count how many hosts, 1..200
     * @return the hosts, joined and up
     * @throws IOException if a command fails (then everything made so far is removed)
     */
    public static NetworkNamespaces create(int count) throws IOException, InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String prefix = "fc" + Integer.toHexString(0x1000 + random.nextInt(0xefff));
        String subnet = "10." + (100 + random.nextInt(150)) + "." + random.nextInt(256);
        NetworkNamespaces n = new NetworkNamespaces(prefix, subnet);
        try {
            n.run("ip", "netns", "add", n.hub);
            n.run("ip", "-n", n.hub, "link", "add", "br0", "type", "bridge");
            n.run("ip", "-n", n.hub, "link", "set", "br0", "up");
            n.run("ip", "-n", n.hub, "link", "set", "lo", "up");
            // the test's own namespace: one end here, the other on the bridge
            n.run("ip", "link", "add", n.rootLink, "type", "veth", "peer", "name", prefix + "h0");
            n.run("ip", "link", "set", prefix + "h0", "netns", n.hub);
            n.run("ip", "-n", n.hub, "link", "set", prefix + "h0", "master", "br0", "up");
            n.run("ip", "addr", "add", n.rootAddress() + "/24", "dev", n.rootLink);
            n.run("ip", "link", "set", n.rootLink, "up");
            for (int i = 1; i <= count; i++) {
                String host = prefix + "-" + i;
                n.hosts.add(host);
                n.run("ip", "netns", "add", host);
                n.run("ip", "link", "add", prefix + "a" + i, "type", "veth", "peer", "name", prefix + "b" + i);
                n.run("ip", "link", "set", prefix + "a" + i, "netns", host);
                n.run("ip", "-n", host, "link", "set", prefix + "a" + i, "name", "eth0");
                n.run("ip", "link", "set", prefix + "b" + i, "netns", n.hub);
                n.run("ip", "-n", n.hub, "link", "set", prefix + "b" + i, "master", "br0", "up");
                n.run("ip", "-n", host, "addr", "add", n.address(i) + "/24", "dev", "eth0");
                n.run("ip", "-n", host, "link", "set", "eth0", "up");
                n.run("ip", "-n", host, "link", "set", "lo", "up");
            }
            return n;
        } catch (IOException | InterruptedException | RuntimeException e) {
            n.close();
            throw e;
        }
    }

    /** @return the test's own address on the hosts' network */
    public String rootAddress() {
        return subnet + ".1";
    }

    /**
     * @param host 1..count
     * @return its address
     */
    public String address(int host) {
        return subnet + "." + (1 + host);
    }

    /**
     * @param host 1..count
     * @return its namespace's name
     */
    public String namespace(int host) {
        return hosts.get(host - 1);
    }

    /**
     * @param host 1..count
     * @param command a program and its arguments
     * @return the command run inside the host's namespace
     */
    public List<String> inside(int host, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
        all.addAll(command);
        return all;
    }

    /**
     * Makes the host refuse every inbound connection: its nftables input chain drops all but
     * loopback and replies to its own connections (real-parts-recipes.md).
     *
     * @param host 1..count
     * @throws IOException if nft fails
     */
    public void refuseInbound(int host) throws IOException, InterruptedException {
        String rules = "table inet ferryfw {\n chain input {\n  type filter hook input priority 0; policy drop;\n"
                + "  iif lo accept\n  ct state established,related accept\n }\n}\n";
        Process p = new ProcessBuilder("ip", "netns", "exec", namespace(host), "nft", "-f", "-")
                .redirectErrorStream(true)
                .start();
        p.getOutputStream().write(rules.getBytes(StandardCharsets.US_ASCII));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("nft in " + namespace(host) + " failed: " + out);
        }
    }

    /**
     * Cuts (link down) or restores (link up) the host's only network link.
     *
     * @param host 1..count
     * @param up false to cut, true to restore
     * @throws IOException if ip fails
     */
    public void link(int host, boolean up) throws IOException, InterruptedException {
        run("ip", "-n", namespace(host), "link", "set", "eth0", up ? "up" : "down");
    }

    private void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
    }

    private void quietly(String... command) {
        try {
            new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor(30, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            // cleaning up: go on with the rest
        }
    }

    /** Kills what still runs in the namespaces, deletes them and the root end of the link. Never throws. */
    @Override
    public void close() {
        List<String> all = new ArrayList<>(hosts);
        all.add(hub);
        for (String ns : all) {
            try {
                Process p = new ProcessBuilder("ip", "netns", "pids", ns).start();
                String pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                p.waitFor(10, TimeUnit.SECONDS);
                for (String pid : pids.split("\\s+")) {
                    if (!pid.isBlank()) {
                        ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
            } catch (IOException | InterruptedException | RuntimeException e) {
                // go on deleting
            }
            quietly("ip", "netns", "del", ns);
        }
        quietly("ip", "link", "del", rootLink);
    }
}
