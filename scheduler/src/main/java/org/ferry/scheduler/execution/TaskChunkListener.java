package org.ferry.scheduler.execution;

import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.runner.ChunkListener;
import org.ferry.mover.runner.FaultCode;
import org.ferry.mover.runner.FileTransfer;
import org.ferry.mover.runner.MoverFault;

/**
 * Applies what the chunk runner reports to the task's execution: bytes and arrived files to its
 * counters, faults to its events, sessions to the set a stop closes, and a file out of attempts
 * to the task's end (FAILED, at once, so the other lanes' transfers are aborted too).
 */
final class TaskChunkListener implements ChunkListener {

    private final TaskExecution execution;
    private final TaskRecorder recorder;
    private final TaskCompletion completion;

    TaskChunkListener(TaskExecution execution, TaskRecorder recorder, TaskCompletion completion) {
        this.execution = execution;
        this.recorder = recorder;
        this.completion = completion;
    }

    @Override
    public boolean isStopped() {
        return execution.isStopped();
    }

    @Override
    public void sessionOpened(GridFtpSession session) {
        execution.track(session);
    }

    @Override
    public void sessionClosed(GridFtpSession session) {
        execution.release(session);
    }

    @Override
    public void onBytes(long delta) {
        execution.addBytes(delta);
    }

    @Override
    public void onFileArrived(FileTransfer file, long bytes) {
        execution.fileArrived(file, bytes);
    }

    @Override
    public void onFault(MoverFault fault) {
        recorder.fault(execution, FaultClassifier.of(fault));
    }

    @Override
    public void onFileFailed(MoverFault fault) {
        if (fault.code() == FaultCode.NO_CREDENTIALS) {
            completion.suspend(execution, Suspension.fault(fault.description()));
            return;
        }
        execution.fileFailed();
        completion.fail(execution, FaultClassifier.of(fault));
    }
}
