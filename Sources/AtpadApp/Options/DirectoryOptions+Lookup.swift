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
        let settings = try configFile.settings(environment: ProcessEnvironment.current(), commandLine: apply)
        let setup = try DirectorySetup(triggers: settings.config.triggers, limit: settings.limit,
                                       commandTimeout: settings.commandTimeout, inBackground: false,
                                       reported: settings.triggerProblem)
        return EntityLookup(setup.files.mapValues(\.entities))
    }
}
