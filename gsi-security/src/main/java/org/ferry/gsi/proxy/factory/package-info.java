/**
 * Making RFC 3820 proxy certificates from a credential: {@link org.ferry.gsi.proxy.factory.ProxyFactory}
 * and its Bouncy Castle implementation, as {@code grid-proxy-init} and GSI delegation do. Apart from
 * {@link org.ferry.gsi.proxy}, which holds the proxy facts (OIDs, policy kinds, identity rules) that
 * credentials and validation need without making anything.
 */
package org.ferry.gsi.proxy.factory;
