import type * as domain from '@svc/domain';

// The domain's public resources as types only. Each is an alias rather than a re-export, because a schema and
// its type share one name in the domain: re-exported, the bundled declarations would export the name as a value
// too, and `Profile.parse(...)` would compile against the SDK and fail at run time.
export type Account = domain.Account;
export type AdminAuditEntry = domain.AdminAuditEntry;
export type AnalyticsShape = domain.AnalyticsShape;
/** A passkey's assertion in its JSON form (`PublicKeyCredential.toJSON()`), for `auth.passkeys.authenticate`. */
export type AuthenticationResponseJson = domain.AuthenticationResponseJson;
export type Blocklist = domain.Blocklist;
export type BlocklistCatalogue = domain.BlocklistCatalogue;
export type CallerIp = domain.CallerIp;
export type Capabilities = domain.Capabilities;
export type Capability = domain.Capability;
export type CompilerSourceList = domain.CompilerSourceList;
export type DdnsUpdate = domain.DdnsUpdate;
export type DdnsUpdateUrl = domain.DdnsUpdateUrl;
export type Device = domain.Device;
export type LinkedIp = domain.LinkedIp;
export type ListBuildList = domain.ListBuildList;
export type ListReport = domain.ListReport;
export type ListReportAccepted = domain.ListReportAccepted;
export type LoginRequest = domain.LoginRequest;
export type Meta = domain.Meta;
export type Node = domain.Node;
export type NodeCreated = domain.NodeCreated;
export type NodeEnrol = domain.NodeEnrol;
export type NodeEnrolled = domain.NodeEnrolled;
export type NodeLinkInfo = domain.NodeLinkInfo;
export type NodeListArtifact = domain.NodeListArtifact;
export type NodeProfileDocument = domain.NodeProfileDocument;
export type NodeProfileLists = domain.NodeProfileLists;
export type NodeTokenRotated = domain.NodeTokenRotated;
export type OperatorAccountMatch = domain.OperatorAccountMatch;
export type OperatorBlock = domain.OperatorBlock;
export type OperatorBlockChange = domain.OperatorBlockChange;
export type OperatorClientError = domain.OperatorClientError;
export type OperatorFeedback = domain.OperatorFeedback;
export type OperatorProfileMatch = domain.OperatorProfileMatch;
export type ParentalCategory = domain.ParentalCategory;
export type ParentalCategoryCatalogue = domain.ParentalCategoryCatalogue;
export type ParentalService = domain.ParentalService;
export type Passkey = domain.Passkey;
/** Creation options in the JSON form browsers parse with `PublicKeyCredential.parseCreationOptionsFromJSON`. */
export type PasskeyCreationOptions = domain.PasskeyCreationOptions;
export type PasskeyRegistered = domain.PasskeyRegistered;
/** Request options in the JSON form browsers parse with `PublicKeyCredential.parseRequestOptionsFromJSON`. */
export type PasskeyRequestOptions = domain.PasskeyRequestOptions;
export type PasswordChangeRequest = domain.PasswordChangeRequest;
export type Pop = domain.Pop;
export type PopList = domain.PopList;
export type Problem = domain.Problem;
export type ProblemCode = domain.ProblemCode;
export type Profile = domain.Profile;
export type ProfilePublicKey = domain.ProfilePublicKey;
export type ProfileRules = domain.ProfileRules;
export type ProfileSuspension = domain.ProfileSuspension;
export type QueryColumn = domain.QueryColumn;
export type QueryResult = domain.QueryResult;
export type QueryStatus = domain.QueryStatus;
/** A new passkey's attestation in its JSON form (`PublicKeyCredential.toJSON()`), for `auth.passkeys.register`. */
export type RegistrationResponseJson = domain.RegistrationResponseJson;
export type Schedule = domain.Schedule;
export type ScheduleAssignment = domain.ScheduleAssignment;
export type ProfileSchedules = domain.ProfileSchedules;
export type Allowance = domain.Allowance;
export type ScheduleWindow = domain.ScheduleWindow;
export type Scope = domain.Scope;
export type SessionRecord = domain.SessionRecord;
export type Setup = domain.Setup;
export type SignupMode = domain.SignupMode;
export type SignupRequest = domain.SignupRequest;
export type SourceBlock = domain.SourceBlock;
export type SourceBlockChange = domain.SourceBlockChange;
export type TokenCreate = domain.TokenCreate;
export type TokenRecord = domain.TokenRecord;
export type TriagedListReport = domain.TriagedListReport;
