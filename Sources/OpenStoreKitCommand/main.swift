import Foundation
import OpenStoreKitCLI

exit(CommandLineTool().run(Array(CommandLine.arguments.dropFirst())))
