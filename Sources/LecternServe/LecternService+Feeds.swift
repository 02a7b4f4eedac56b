import Foundation
import Hummingbird

/// The podcast feed of each book, at its secret address.
extension LecternService {
    func addFeedRoutes(to router: Router<ServeContext>) {
    }
}
