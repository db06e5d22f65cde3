/** Ferry mover-netty. */
package org.ferry.mover;
