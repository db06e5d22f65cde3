/** Ferry cli. */
package org.ferry.cli;
