/** The HTTPS listener with X.509 client certificates (mutual TLS) of ferry-server. */
package org.ferry.server.https;
