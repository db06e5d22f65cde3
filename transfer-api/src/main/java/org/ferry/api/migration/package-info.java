/** Flyway migrations written in Java, for steps SQL cannot do (sealing secrets needs the key). */
package org.ferry.api.migration;
