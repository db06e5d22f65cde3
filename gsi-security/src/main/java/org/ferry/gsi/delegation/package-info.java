/**
 * GSI delegation pieces (reference 4.2 steps 3-5, MyProxy GET): the acceptor's key pair and
 * SHA-256 PKCS#10 request, the initiator's proxy signature over it, and the assembled credential.
 */
package org.ferry.gsi.delegation;
