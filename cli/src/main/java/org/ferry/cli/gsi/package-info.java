/**
 * The little GSI the CLI needs for {@code ferry endpoint activate --delegate-proxy}: reading the
 * user's proxy file and signing an RFC 3820 proxy certificate for a public key the service sent,
 * on Bouncy Castle directly (the CLI depends on no other Ferry module).
 */
package org.ferry.cli.gsi;
