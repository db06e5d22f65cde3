/** Ferry gsi-security. */
package org.ferry.gsi;
