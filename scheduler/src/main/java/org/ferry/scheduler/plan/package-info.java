/** Planning: crawl, destination tree, sync levels, resume, chunking. */
package org.ferry.scheduler.plan;
