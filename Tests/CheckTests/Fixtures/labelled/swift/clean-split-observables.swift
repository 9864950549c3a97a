import Observation

@Observable final class AccountModel { var account: Account? }
@Observable final class DraftsModel { var drafts: [Draft] = [] }
@Observable final class SearchModel { var text = "" }

enum Tab: Hashable { case inbox, drafts, settings }
