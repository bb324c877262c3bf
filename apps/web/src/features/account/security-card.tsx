import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Switch } from '../../components/ui/switch.tsx';

/** Two-factor and Google connect: local simulations (SPEC section 7). */
export function SecurityCard() {
  const twoFactorId = useId();
  const [isTwoFactorOn, setTwoFactor] = useState(false);
  const [isGoogleConnected, setGoogleConnected] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Security</CardTitle>
        <CardDescription>Protect your account.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <div className="flex items-center justify-between gap-4">
          <div>
            <Label htmlFor={twoFactorId}>Two-factor authentication</Label>
            <p className="text-sm text-gray-500">Ask for a code from your phone at sign-in.</p>
          </div>
          <Switch
            id={twoFactorId}
            checked={isTwoFactorOn}
            onCheckedChange={(checked) => {
              setTwoFactor(checked);
              toast.success(
                checked ? 'Two-factor authentication enabled' : 'Two-factor authentication disabled',
              );
            }}
          />
        </div>
        <div className="flex items-center justify-between gap-4">
          <div>
            <p className="text-sm font-medium text-gray-800">Google account</p>
            <p className="text-sm text-gray-500">{isGoogleConnected ? 'Connected' : 'Not connected'}</p>
          </div>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setGoogleConnected((connected) => !connected);
              toast.success(isGoogleConnected ? 'Google account disconnected' : 'Google account connected');
            }}
          >
            {isGoogleConnected ? 'Disconnect' : 'Connect Google'}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
