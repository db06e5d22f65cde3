package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.CommandRegistry;
import org.ferry.mover.server.popen.PopenPolicy;

/**
 * The handlers of every command Ferry's GridFTP server implements, in FEAT order. RETR, STOR, APPE,
 * ESTO and PASV run striped over the server's data transfer processes when the data endpoint is
 * there (after SPAS/SPOR, or on a head node), plainly otherwise (GFD.020 "SPAS"/"SPOR"; SC'05 paper
 * section 5).
 */
public final class StandardCommands {

    /**
     * How many files' whole-file checksums a server keeps for CKSM ({@link ChecksumCache}): a few
     * hundred bytes each, so about 20 MiB when full.
     */
    static final int CHECKSUM_CACHE_FILES = 65_536;

    private StandardCommands() {}

    /**
     * @param dtp the server's DTPs (one local DTP, or one per data node)
     * @return the command table of a server without GSI
     */
    public static CommandRegistry registry(StripedDtp dtp) {
        return registry(dtp, PopenPolicy.disabled());
    }

    /**
     * @param dtp the server's DTPs (one local DTP, or one per data node)
     * @param popen the programs SITE SETDISKSTACK may run and their limits
     * @return the command table of a server without GSI
     */
    public static CommandRegistry registry(StripedDtp dtp, PopenPolicy popen) {
        return CommandRegistry.of(all(dtp, popen));
    }

    static List<CommandHandler> all(StripedDtp dtp, PopenPolicy popen) {
        ChecksumCache checksums = new ChecksumCache(CHECKSUM_CACHE_FILES); // the server's: one registry per server
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
                new CksmHandler(checksums),
                new ScksHandler(),
                new TypeHandler(),
                new ModeHandler(),
                new StruHandler(),
                new PwdHandler(),
                new CwdHandler(),
                new CdupHandler(),
                new PasvHandler(dtp),
                new EpsvHandler(),
                new PortHandler(),
                new EprtHandler(),
                new MlsdHandler(),
                new ListHandler(),
                new NlstHandler(),
                new RetrHandler(dtp),
                new StorHandler(dtp, checksums),
                new AppeHandler(dtp),
                new EretHandler(),
                new EstoHandler(dtp),
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
                new SiteBufferSizeHandler("SBUF", SiteBufferSizeHandler.Buffer.BOTH),
                new SpasHandler(dtp),
                new SporHandler(),
                new SiteStripesHandler(dtp),
                new SiteSetDiskStackHandler(popen),
                new SiteSetNetStackHandler());
    }
}
