package org.ferry.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * The {@code --version} text: the {@code Implementation-Version} of the jar's manifest (set by
 * the shaded jar's build), or {@code dev} when run from classes.
 */
public final class FerryVersion implements IVersionProvider {
    /** @return one line, e.g. {@code ferry 0.1.0-SNAPSHOT} */
    @Override
    public String[] getVersion() {
        String version = FerryVersion.class.getPackage().getImplementationVersion();
        return new String[] {
            "ferry " + (version != null ? version : "dev"), "Java " + System.getProperty("java.version")
        };
    }
}
