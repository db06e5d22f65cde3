/**
 * X.509 proxy certificates: RFC 3820 creation (impersonation and Globus limited), recognition of
 * RFC 3820, GT3 draft and legacy Globus ({@code CN=proxy}) proxies, and the identity of a chain.
 */
package org.ferry.gsi.proxy;
