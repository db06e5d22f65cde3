/**
 * A small certificate authority: the online CA that issues host and service certificates to new
 * endpoints against one-time setup keys (as Globus Connect does), on a Simple-CA-like directory.
 */
package org.ferry.gsi.ca;
