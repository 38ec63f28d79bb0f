export interface AppPermissions {
  notifications: boolean;
}
