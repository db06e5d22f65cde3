package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.CommandRegistry;

/** The handlers of every command Ferry's GridFTP server implements, in FEAT order. */
public final class StandardCommands {

    private StandardCommands() {}

    /** @return the command table of a server without GSI */
    public static CommandRegistry registry() {
        return CommandRegistry.of(all());
    }

    static List<CommandHandler> all() {
        return List.of(
                new UserHandler(),
                new PassHandler(),
                new QuitHandler(),
                new NoopHandler(),
                new SystHandler(),
                new FeatHandler(),
                new HelpHandler(),
                new SiteHelpHandler(),
                new SiteClientInfoHandler(),
                new MdtmHandler(),
                new SizeHandler(),
                new RestHandler(),
                new MlstHandler(),
                new OptsHandler(),
                new OptsRetrHandler(),
                new CksmHandler(),
                new ScksHandler(),
                new TypeHandler(),
                new ModeHandler(),
                new StruHandler(),
                new PwdHandler(),
                new CwdHandler(),
                new CdupHandler(),
                new PasvHandler(),
                new EpsvHandler(),
                new PortHandler(),
                new EprtHandler(),
                new MlsdHandler(),
                new ListHandler(),
                new NlstHandler(),
                new RetrHandler(),
                new StorHandler(),
                new AppeHandler(),
                new EretHandler(),
                new EstoHandler(),
                new MkdHandler(),
                new RmdHandler(),
                new DeleHandler(),
                new RnfrHandler(),
                new RntoHandler(),
                new AborHandler(),
                new AlloHandler(),
                new SbufHandler(),
                new TrevHandler(),
                new MfmtHandler(),
                new SiteUtimeHandler(),
                new SiteChmodHandler(),
                new MlscHandler(),
                new StatHandler(),
                new SiteBufferSizeHandler("RETRBUFSIZE", SiteBufferSizeHandler.Buffer.RECEIVE),
                new SiteBufferSizeHandler("RBUFSZ", SiteBufferSizeHandler.Buffer.RECEIVE),
                new SiteBufferSizeHandler("RBUFSIZ", SiteBufferSizeHandler.Buffer.RECEIVE),
                new SiteBufferSizeHandler("STORBUFSIZE", SiteBufferSizeHandler.Buffer.SEND),
                new SiteBufferSizeHandler("SBUFSZ", SiteBufferSizeHandler.Buffer.SEND),
                new SiteBufferSizeHandler("SBUFSIZ", SiteBufferSizeHandler.Buffer.SEND),
                new SiteBufferSizeHandler("SBUF", SiteBufferSizeHandler.Buffer.BOTH));
    }
}
