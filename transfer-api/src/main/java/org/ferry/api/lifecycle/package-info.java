/** Domain events through which the API causes work in the scheduler without depending on it. */
package org.ferry.api.lifecycle;
