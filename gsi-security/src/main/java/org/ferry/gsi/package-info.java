/**
 * Ferry gsi-security: the Grid Security Infrastructure on Bouncy Castle (+ canl for path
 * validation). Entry points:
 * <ul>
 *   <li>{@link org.ferry.gsi.proxy.factory.ProxyFactory} / {@link org.ferry.gsi.proxy.factory.BcProxyFactory}: RFC 3820 proxies;</li>
 *   <li>{@link org.ferry.gsi.trust.ChainValidator} / {@link org.ferry.gsi.trust.CanlChainValidator},
 *       {@link org.ferry.gsi.trust.OpensslTrustDirectory}: trust and path validation;</li>
 *   <li>{@link org.ferry.gsi.credential.CredentialLoader}, {@link org.ferry.gsi.credential.PemFiles}: credentials;</li>
 *   <li>{@link org.ferry.gsi.gridmap.GridMap}, {@link org.ferry.gsi.gridmap.GridMapAuthorizer}: authorization;</li>
 *   <li>{@link org.ferry.gsi.ca.OnlineCa}: host certificates against one-time setup keys;</li>
 *   <li>{@link org.ferry.gsi.delegation}: delegation CSR and signing;</li>
 *   <li>{@link org.ferry.gsi.context.SecurityContext}: AUTH GSSAPI/ADAT tokens, wrap/unwrap;</li>
 *   <li>{@link org.ferry.gsi.myproxy.MyProxyClient}: MyProxy GET.</li>
 * </ul>
 */
package org.ferry.gsi;
