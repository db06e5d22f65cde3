/** Ferry webapp. */
package org.ferry.server;
