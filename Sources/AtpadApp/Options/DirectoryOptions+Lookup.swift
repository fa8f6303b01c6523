import AtpadCore
import AtpadDirectory
import AtpadSystem
import FoundationEssentials
import Glibc

extension DirectoryOptions {
    /// The directories these options and the config file route, as an `EntityLookup` for
    /// the formats (handles, ids, urls). Loads every directory file, so call it only when
    /// a format needs it.
    func lookup(configFile: ConfigFileOption) throws -> EntityLookup {
        EntityLookup(try entities(configFile: configFile))
    }

    /// The entities of every directory file these options and the config file route, by
    /// trigger (`lookup`'s tables; `check` also takes their names as known words).
    func entities(configFile: ConfigFileOption) throws -> [Unicode.Scalar: [Entity]] {
        let settings = try configFile.settings(environment: ProcessEnvironment.current(), commandLine: apply)
        let setup = try DirectorySetup(triggers: settings.config.triggers, limit: settings.limit,
                                       commandTimeout: settings.commandTimeout, inBackground: false,
                                       reported: settings.triggerProblem)
        return setup.files.mapValues(\.entities)
    }
}
