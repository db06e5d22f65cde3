/**
 * How the CLI prints: the {@code -F text|json|unix} formats, aligned tables, records and byte
 * sizes, so every command prints the same way.
 */
package org.ferry.cli.output;
